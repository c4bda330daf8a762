/** What a log line keeps on its way to Sentry: the attributes that identify it, masked words, no access line. */
import type { Log } from "@sentry/node";
import { describe, expect, it } from "vitest";
import { scrubLog } from "./sentry-logs.server";

const line = (message: string, attributes: Record<string, unknown>): Log => ({
  level: "info",
  message,
  attributes,
});

describe("scrubLog", () => {
  it("keeps what identifies the line and its request, drops every other attribute", () => {
    const scrubbed = scrubLog(
      line("request refused", {
        instance: "web-1",
        requestId: "r-1",
        method: "PUT",
        path: "/orders/1?email=ada.lovelace@example.com",
        status: 405,
        reason: "method not allowed",
        client: "203.0.113.9",
        headers: { cookie: "session=secret" },
        customer: "Ada Lovelace",
        "sentry.origin": "auto.log.pino",
      }),
    );
    expect(scrubbed?.attributes).toEqual({
      instance: "web-1",
      requestId: "r-1",
      method: "PUT",
      path: "/orders/1",
      status: 405,
      reason: "method not allowed",
      "sentry.origin": "auto.log.pino",
    });
  });

  it("masks the message and the error's words, and keeps only the error's safe fields", () => {
    const scrubbed = scrubLog(
      line("charge for ada.lovelace@example.com failed", {
        err: {
          type: "Error",
          message: "card 4111 1111 1111 1111",
          stack: "Error: card 4111 1111 1111 1111",
          raw: { x: 1 },
        },
      }),
    );
    expect(scrubbed?.message).toBe("charge for [email] failed");
    expect(scrubbed?.attributes?.err).toEqual({
      type: "Error",
      message: "card [number]",
      stack: "Error: card [number]",
    });
  });
});
