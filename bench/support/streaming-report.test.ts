import { describe, expect, it } from "vitest";
import type { RecordedEnvelope } from "../../test-support/sentry-recorder";
import { countSent, type Sent } from "./streaming-report";

const envelope = (project: string, items: { type: string; payload: unknown }[]) =>
  ({ project, rawBody: Buffer.alloc(2048), items }) as unknown as RecordedEnvelope;

describe("countSent", () => {
  it("counts a transaction with its child spans and a span item's spans, per project", () => {
    const sent = new Map<string, Sent>();
    countSent(sent, envelope("10", [{ type: "transaction", payload: { spans: [{}, {}] } }]));
    countSent(sent, envelope("11", [{ type: "span", payload: { version: 2, items: [{}, {}, {}] } }]));
    countSent(sent, envelope("11", [{ type: "client_report", payload: {} }]));
    expect(sent.get("10")).toEqual({ envelopes: 1, transactions: 1, spanItems: 0, spans: 3, kb: 2 });
    expect(sent.get("11")).toEqual({ envelopes: 2, transactions: 0, spanItems: 1, spans: 3, kb: 4 });
  });
});
