/**
 * The cause a log line and a Sentry event carry: an Error's class, stack and
 * masked message; none of its fields' values; a thrown non-Error by its keys.
 * pino's own error serializer writes it, as the logger does.
 */
import { stdSerializers } from "pino";
import { describe, expect, it } from "vitest";
import { reportedCause, ThrownValue } from "./server-failure.server";

const PRIVATE = {
  token: "tok_live_4eC39HqLyjWDarjtT1zdp7dc",
  email: "ada.lovelace@example.com",
  card: "4111 1111 1111 1111",
  name: "Ada Lovelace",
};

const logged = (error: Error) => JSON.stringify(stdSerializers.err(error));

function expectNothingPrivate(text: string): void {
  for (const value of Object.values(PRIVATE)) expect(text).not.toContain(value);
}

describe("reportedCause", () => {
  it("keeps an Error's class, name and frames, its message masked, in the stack too", () => {
    class PaymentError extends Error {
      override name = "PaymentError";
    }
    const error = new PaymentError(
      `Charge failed: token ${PRIVATE.token}, ${PRIVATE.email}, card ${PRIVATE.card}`,
    );
    const cause = reportedCause(error);
    expect(cause).toBeInstanceOf(PaymentError);
    expect(cause.message).toBe("Charge failed: token [token], [email], card [number]");
    expect(cause.stack?.split("\n")[0]).toBe(`PaymentError: ${cause.message}`);
    expect(cause.stack?.split("\n").slice(1)).toEqual(error.stack?.split("\n").slice(1));
    expect(stdSerializers.err(cause)).toMatchObject({ type: "PaymentError", message: cause.message });
    expectNothingPrivate(logged(cause));
  });

  it("names an Error's own fields without their values, and keeps a system error's code", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED"), {
      code: "ECONNREFUSED",
      syscall: "connect",
      config: { headers: { Authorization: `Bearer ${PRIVATE.token}` } },
      customer: PRIVATE.name,
    });
    const serialized = stdSerializers.err(reportedCause(error));
    expect(serialized).toMatchObject({
      code: "ECONNREFUSED",
      syscall: "connect",
      fields: ["config", "customer"],
    });
    expectNothingPrivate(logged(reportedCause(error)));
  });

  it("masks the causes it carries on", () => {
    const error = new Error("Checkout failed", { cause: new Error(`No customer ${PRIVATE.email}`) });
    const cause = reportedCause(error);
    expect((cause.cause as Error).message).toBe("No customer [email]");
    expect(logged(cause)).toContain("No customer [email]");
    expectNothingPrivate(logged(cause));
  });

  it("names a thrown non-Error as Sentry's SDK does, by its keys", () => {
    const cause = reportedCause({
      token: PRIVATE.token,
      customer: { name: PRIVATE.name },
      card: PRIVATE.card,
    });
    expect(cause).toBeInstanceOf(ThrownValue);
    expect(cause.message).toBe("Object captured as exception with keys: card, customer, token");
    expectNothingPrivate(logged(cause));
    expect(reportedCause(`token ${PRIVATE.token}`).message).toBe("string captured as exception");
    expect(reportedCause(new Map([[PRIVATE.email, 1]])).message).toBe(
      "'Map' captured as exception with keys: [object has no keys]",
    );
    expect(reportedCause({ [PRIVATE.email]: 1 }).message).toBe(
      "Object captured as exception with keys: [email]",
    );
  });
});
