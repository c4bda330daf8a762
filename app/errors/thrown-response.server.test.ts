/**
 * A thrown 5xx answer keeps its words (status text, a short masked rendering
 * of its body) and never more: the words are the log line's `err.message` and
 * the Sentry event's exception value.
 */
import { data } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { MAX_BODY_WORDS, renderBody, responseError, thrownDataError } from "./thrown-response.server";

/** What Remix 2's `json()` returns (React Router 8 has no `json()`: its `data()` is tested below). */
function jsonResponse(body: unknown, init: ResponseInit): Response {
  return new Response(JSON.stringify(body), { ...init, headers: { "Content-Type": "application/json" } });
}

describe("responseError", () => {
  it("keeps the status text of a json({}) and leaves out the empty body", async () => {
    const error = await responseError(jsonResponse({}, { status: 500, statusText: "Payment provider down" }));
    expect(error.name).toBe("ThrownResponse");
    expect(error.message).toBe("Payment provider down");
  });

  it("says what a text or JSON body says, after the status text", async () => {
    expect((await responseError(new Response("Upstream said no", { status: 500 }))).message).toBe(
      "Upstream said no",
    );
    const both = jsonResponse({ error: "card declined" }, { status: 502, statusText: "Bad Gateway" });
    expect((await responseError(both)).message).toBe('Bad Gateway: {"error":"card declined"}');
  });

  it("keeps the status text of a Response without a body, as @sentry/remix reports it", async () => {
    const response = new Response(null, { status: 500, statusText: "Not found" });
    expect((await responseError(response)).message).toBe("Not found");
  });

  it("falls back to the status when the answer has no words", async () => {
    expect((await responseError(new Response(null, { status: 503 }))).message).toBe("503 Response");
  });

  it("never reads an HTML document", async () => {
    const page = new Response("<html><body>Dear alice</body></html>", {
      status: 500,
      headers: { "Content-Type": "text/html" },
    });
    expect((await responseError(page)).message).toBe("500 Response");
  });

  it("masks the status text as it masks the body", async () => {
    const response = new Response(null, { status: 500, statusText: "No account for bob@example.com" });
    expect((await responseError(response)).message).toBe("No account for [email]");
  });

  it("leaves the framework's copy of the body unread", async () => {
    const response = new Response("Upstream said no", { status: 500 });
    await responseError(response);
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe("Upstream said no");
  });

  it("does not wait for the end of an endless body", async () => {
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode("again ")),
    });
    const error = await responseError(new Response(endless, { status: 500 }));
    expect(error.message).toHaveLength(MAX_BODY_WORDS);
    expect(error.message.endsWith("…")).toBe(true);
  });
});

describe("thrownDataError", () => {
  it("keeps the status text and the data of a thrown data()", () => {
    expect(thrownDataError(data({}, { status: 500, statusText: "Payment provider down" })).message).toBe(
      "Payment provider down",
    );
    expect(thrownDataError(data("Upstream said no", { status: 500 })).message).toBe("Upstream said no");
    expect(thrownDataError(data(null, { status: 504 })).message).toBe("504 Response");
  });

  it("leaves out data JSON cannot write", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(thrownDataError(data(cycle, { status: 500, statusText: "Stuck" })).message).toBe("Stuck");
    expect(thrownDataError(data({ n: 1n }, { status: 500 })).message).toBe("500 Response");
  });
});

describe("renderBody", () => {
  it("is one bounded line", () => {
    expect(renderBody("line one\n\tline two\r\n")).toBe("line one line two");
    const long = renderBody("word ".repeat(500));
    expect(long).toHaveLength(MAX_BODY_WORDS);
  });

  it("masks e-mail addresses and long digit runs", () => {
    expect(renderBody("No account for alice.smith+x@example.co.uk")).toBe("No account for [email]");
    expect(renderBody("Card 4111 1111 1111 1111 declined, order 42")).toBe(
      "Card [number] declined, order 42",
    );
    expect(renderBody('{"phone":"+44 20-7946-0958"}')).toBe('{"phone":"+[number]"}');
  });

  it("says nothing for an empty object, array, string or null", () => {
    for (const empty of ["", "{}", "[]", '""', "null", "  { }  "]) expect(renderBody(empty)).toBe("");
  });
});
