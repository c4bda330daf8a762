/**
 * A log envelope as the SDK itself writes it (`@sentry/core`'s envelope functions,
 * the log item's header and payload as `createLogEnvelope` makes them), parsed by
 * the recorder and read as records.
 */
import { createEnvelope, serializeEnvelope } from "@sentry/core";
import { describe, expect, it } from "vitest";
import { parseEnvelope } from "./envelope";
import { logRecords, logRecordsOf } from "./log-records";

const TRACE_ID = "0123456789abcdef0123456789abcdef";

function logEnvelope(items: object[]): Buffer {
  const envelope = createEnvelope({ sdk: { name: "sentry.javascript.node", version: "11.12.0" } }, [
    [
      { type: "log", item_count: items.length, content_type: "application/vnd.sentry.items.log+json" },
      { version: 2, items },
    ] as never,
  ]);
  const serialized = serializeEnvelope(envelope);
  return Buffer.from(serialized);
}

describe("logRecordsOf", () => {
  it("reads each record of a log item, attributes as plain values", () => {
    const body = logEnvelope([
      {
        timestamp: 1,
        level: "warn",
        body: "slow upstream",
        trace_id: TRACE_ID,
        severity_number: 13,
        attributes: {
          route: { value: "/orders/:id", type: "string" },
          status: { value: 502, type: "integer" },
        },
      },
      { timestamp: 2, level: "error", body: "unexpected server error", attributes: {} },
    ]);
    const { items } = parseEnvelope(body);
    expect(items.map((item) => item.type)).toEqual(["log"]);
    expect(logRecordsOf(items[0]!)).toEqual([
      {
        level: "warn",
        body: "slow upstream",
        trace_id: TRACE_ID,
        attributes: { route: "/orders/:id", status: 502 },
      },
      { level: "error", body: "unexpected server error", attributes: {} },
    ]);
  });

  it("finds none in other items", () => {
    const { items } = parseEnvelope(
      Buffer.from('{}\n{"type":"event"}\n{"message":"x"}\n{"type":"log"}\n{"items":"not a list"}\n'),
    );
    expect(logRecords(items)).toEqual([]);
  });
});
