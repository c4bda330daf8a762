/**
 * Unit tests for the recorder's envelope parser (no server).
 */
import { describe, expect, it } from "vitest";
import { parseEnvelope } from "../sentry-recorder.js";
import { ENVELOPE_HEADER, envelope, errorEvent, eventEnvelope, transaction } from "./test-envelopes";

describe("parseEnvelope", () => {
  it("parses the envelope header and a JSON event item", () => {
    const { header, items } = parseEnvelope(eventEnvelope());
    expect(header).toEqual(ENVELOPE_HEADER);
    expect(items).toHaveLength(1);
    expect(items[0]?.type).toBe("event");
    expect(items[0]?.header).toEqual({ type: "event" });
    expect(items[0]?.payload).toEqual(errorEvent);
    expect(items[0]?.raw.toString()).toBe(JSON.stringify(errorEvent));
  });

  it("parses multiple items of different types, with and without length", () => {
    const txJson = JSON.stringify(transaction);
    const body = envelope(
      ENVELOPE_HEADER,
      [{ type: "transaction", length: Buffer.byteLength(txJson) }, txJson],
      [{ type: "session" }, { sid: "s1", status: "ok", errors: 0 }],
      [
        { type: "client_report" },
        { discarded_events: [{ reason: "ratelimit_backoff", category: "error", quantity: 2 }] },
      ],
    );
    const { items } = parseEnvelope(body);
    expect(items.map((i) => i.type)).toEqual(["transaction", "session", "client_report"]);
    expect(items[0]?.payload).toEqual(transaction);
    expect(items[1]?.payload).toEqual({ sid: "s1", status: "ok", errors: 0 });
  });

  it("reads exactly `length` bytes, even when they contain newlines and binary", () => {
    const binary = Buffer.from([0x00, 0x0a, 0xff, 0x0a, 0x0a, 0x7b, 0x0d, 0x0a, 0x80]);
    const body = envelope(
      ENVELOPE_HEADER,
      [{ type: "attachment", length: binary.length, filename: "blob.bin" }, binary],
      [{ type: "event", length: Buffer.byteLength('{"message":"a\\nb ü"}') }, '{"message":"a\\nb ü"}'],
    );
    const { items } = parseEnvelope(body);
    expect(items).toHaveLength(2);
    expect(Buffer.isBuffer(items[0]?.payload)).toBe(true);
    expect((items[0]?.payload as Buffer).equals(binary)).toBe(true);
    expect(items[0]?.raw.equals(binary)).toBe(true);
    expect(items[1]?.payload).toEqual({ message: "a\nb ü" });
  });

  it("keeps a length-less payload up to the end of the body", () => {
    const body = Buffer.from('{}\n{"type":"event"}\n{"message":"last"}');
    expect(parseEnvelope(body).items[0]?.payload).toEqual({ message: "last" });
  });

  it("tolerates trailing newlines and empty lines after the items", () => {
    const body = Buffer.concat([eventEnvelope(), Buffer.from("\n\n\r\n")]);
    expect(parseEnvelope(body).items).toHaveLength(1);
  });

  it("accepts a header-only envelope", () => {
    expect(parseEnvelope(Buffer.from('{"event_id":"x"}\n'))).toEqual({
      header: { event_id: "x" },
      items: [],
    });
  });

  it("keeps non-JSON payloads as Buffers", () => {
    const body = envelope(
      {},
      [{ type: "event" }, "not json"],
      [{ type: "replay_recording" }, '{"segment_id":0}'],
    );
    const { items } = parseEnvelope(body);
    expect(Buffer.isBuffer(items[0]?.payload)).toBe(true);
    expect(items[0]?.payload.toString()).toBe("not json");
    // replay_recording is binary by definition even when it happens to look like JSON.
    expect(Buffer.isBuffer(items[1]?.payload)).toBe(true);
  });

  it.each([
    ["an empty body", ""],
    ["a header that is not JSON", 'nope\n{"type":"event"}\n{}'],
    ["a header that is not an object", "[1,2]\n"],
    ["an item header that is not JSON", "{}\n{type:event}\n{}"],
    ["an item header without type", '{}\n{"length":2}\n{}'],
    ["a length past the end of the body", '{}\n{"type":"attachment","length":99}\nshort'],
    ["a negative length", '{}\n{"type":"attachment","length":-1}\nx'],
  ])("throws on %s", (_name, body) => {
    expect(() => parseEnvelope(Buffer.from(body))).toThrow(Error);
  });
});
