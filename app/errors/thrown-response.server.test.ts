/**
 * A thrown 5xx answer is reported by what identifies it (status, status text,
 * a JSON body's keys, otherwise its type and length), never by the values in
 * its body unless the team opts in: the message is the log line's `err.message`
 * and the Sentry event's title, the same for the same failure so events group.
 */
import { data } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { MAX_BODY_WORDS, responseError, thrownDataError } from "./thrown-response.server";

const PRIVATE = {
  token: "tok_live_4eC39HqLyjWDarjtT1zdp7dc",
  name: "Ada Lovelace",
  card: "4111 1111 1111 1111",
};
const OPTED_IN = { thrownBodies: true };

/** What Remix 2's `json()` returns (React Router 8 has no `json()`: its `data()` is tested below). */
function jsonResponse(body: unknown, init: ResponseInit): Response {
  return new Response(JSON.stringify(body), { ...init, headers: { "Content-Type": "application/json" } });
}

function expectNoPrivateValue(error: Error): void {
  const said = JSON.stringify({ ...error, message: error.message, stack: error.stack });
  for (const value of Object.values(PRIVATE)) expect(said).not.toContain(value);
}

describe("responseError", () => {
  it("names a JSON object body by its sorted keys, never its values", async () => {
    const response = jsonResponse(
      { token: PRIVATE.token, customer: { name: PRIVATE.name }, card: PRIVATE.card },
      { status: 500, statusText: "Payment provider down" },
    );
    const error = await responseError(response);
    expect(error.name).toBe("ThrownResponse");
    expect(error.message).toBe("500 Payment provider down, body with keys: card, customer, token");
    expect(error.answer).toMatchObject({
      status: 500,
      contentType: "application/json",
      keys: ["card", "customer", "token"],
    });
    expect(error.answer.body).toBeUndefined();
    expectNoPrivateValue(error);
  });

  it("names a text body by its type and length, the length out of the message", async () => {
    const text = `Charge for ${PRIVATE.name}, card ${PRIVATE.card}`;
    const error = await responseError(new Response(text, { status: 502 }));
    expect(error.message).toBe("502 Response, text/plain body");
    expect(error.answer).toMatchObject({
      contentType: "text/plain",
      length: new TextEncoder().encode(text).length,
    });
    expectNoPrivateValue(error);
    const other = await responseError(new Response("Upstream said no", { status: 502 }));
    expect(other.message).toBe(error.message);
  });

  it("keeps the status text of a json({}), and says the status of a Response without words", async () => {
    expect(
      (await responseError(jsonResponse({}, { status: 500, statusText: "Payment provider down" }))).message,
    ).toBe("500 Payment provider down");
    expect((await responseError(new Response(null, { status: 503 }))).message).toBe("503 Response");
  });

  it("never reads an HTML document", async () => {
    const page = new Response("<html><body>Dear alice</body></html>", {
      status: 500,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
    const error = await responseError(page, OPTED_IN);
    expect(error.message).toBe("500 Response, text/html body");
    expect(JSON.stringify(error.answer)).not.toContain("alice");
  });

  it("masks the status text", async () => {
    const response = new Response(null, { status: 500, statusText: "No account for bob@example.com" });
    expect((await responseError(response)).message).toBe("500 No account for [email]");
  });

  it("leaves the framework's copy of the body unread", async () => {
    const response = new Response("Upstream said no", { status: 500 });
    await responseError(response, OPTED_IN);
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe("Upstream said no");
  });

  it("does not wait for the end of an endless body", async () => {
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode('{"again":1,')),
    });
    const error = await responseError(new Response(endless, { status: 500 }), OPTED_IN);
    expect(error.answer).toMatchObject({ truncated: true });
    expect(error.answer.keys).toBeUndefined();
    expect(error.answer.body).toHaveLength(MAX_BODY_WORDS);
  });

  it("carries the body, masked and bounded, only when the team opts in", async () => {
    const text = `Charge for ${PRIVATE.name} failed, card ${PRIVATE.card}, token ${PRIVATE.token}`;
    const error = await responseError(new Response(text, { status: 500 }), OPTED_IN);
    expect(error.answer.body).toBe("Charge for Ada Lovelace failed, card [number], token [token]");
    expect(error.message).toBe("500 Response, text/plain body");
  });
});

describe("thrownDataError", () => {
  it("names data() by its status text and keys, or its kind and length", () => {
    const keyed = data(
      { token: PRIVATE.token, name: PRIVATE.name },
      { status: 500, statusText: "Payment provider down" },
    );
    expect(thrownDataError(keyed).message).toBe("500 Payment provider down, body with keys: name, token");
    expectNoPrivateValue(thrownDataError(keyed));
    expect(thrownDataError(data({}, { status: 500, statusText: "Payment provider down" })).message).toBe(
      "500 Payment provider down",
    );
    const text = thrownDataError(data(`Upstream refused ${PRIVATE.name}`, { status: 500 }));
    expect(text.message).toBe("500 Response, string body");
    expect(text.answer.length).toBe(`Upstream refused ${PRIVATE.name}`.length);
    expect(thrownDataError(data([1, 2], { status: 500 })).answer).toMatchObject({
      contentType: "Array",
      length: 2,
    });
    expect(thrownDataError(data(null, { status: 504 })).message).toBe("504 Response");
    for (const empty of [[], "", undefined])
      expect(thrownDataError(data(empty, { status: 500 })).message).toBe("500 Response");
  });

  it("carries data JSON cannot write, opted in, as nothing", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const error = thrownDataError(data(cycle, { status: 500, statusText: "Stuck" }), OPTED_IN);
    expect(error.message).toBe("500 Stuck, body with keys: self");
    expect(error.answer.body).toBe("");
    expect(thrownDataError(data({ n: 1n }, { status: 500 }), OPTED_IN).answer.body).toBe("");
  });
});
