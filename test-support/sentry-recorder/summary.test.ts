/**
 * Unit tests for the recorder's one-line item summaries.
 */
import { describe, expect, it } from "vitest";
import { summarizeItem, type EnvelopeItem } from "../sentry-recorder.js";
import { errorEvent, transaction } from "./test-envelopes";

describe("summarizeItem", () => {
  const item = (
    type: string,
    payload: unknown,
    header: Record<string, unknown> = { type },
  ): EnvelopeItem => ({
    type,
    header,
    payload,
    raw: Buffer.from(JSON.stringify(payload) ?? ""),
  });

  it("summarizes events with level, main exception and digest", () => {
    expect(summarizeItem(item("event", errorEvent))).toBe("event [error] TypeError: boom digest=123456");
  });

  it("summarizes message events and keeps them on one line", () => {
    expect(summarizeItem(item("event", { level: "warning", message: "line1\nline2" }))).toBe(
      'event [warning] "line1\\nline2"',
    );
    const multiline = { exception: { values: [{ type: "Error", value: "a\nb" }] } };
    expect(summarizeItem(item("event", multiline))).not.toContain("\n");
  });

  it("summarizes transactions with name, op and span count", () => {
    expect(summarizeItem(item("transaction", transaction))).toBe(
      "transaction GET /products/:id op=http.server spans=3",
    );
  });

  it("falls back to type and size for binary payloads", () => {
    const bin = Buffer.from([1, 2, 3]);
    const attachment: EnvelopeItem = {
      type: "attachment",
      header: { type: "attachment", filename: "a.png" },
      payload: bin,
      raw: bin,
    };
    expect(summarizeItem(attachment)).toBe("attachment a.png (3 bytes)");
  });
});
