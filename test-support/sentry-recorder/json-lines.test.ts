/**
 * Unit tests for the recorder's full view (one JSON line per item), over envelopes the parser read.
 */
import { describe, expect, it } from "vitest";
import { itemJsonLines, parseEnvelope, type RecordedEnvelope } from "../sentry-recorder.js";
import { ENVELOPE_HEADER, envelope, errorEvent, transaction } from "./test-envelopes";

/** An envelope as the server records it, from a body. */
function recorded(body: Buffer): RecordedEnvelope {
  return {
    ...parseEnvelope(body),
    receivedAt: Date.UTC(2025, 0, 1, 12, 0, 1, 234),
    project: "7",
    path: "/api/7/envelope/",
    headers: {},
    rawBody: body,
    answeredStatus: 200,
  };
}

describe("itemJsonLines", () => {
  it("gives each item its own line: the whole payload beside the envelope's header", () => {
    const event = { ...errorEvent, contexts: { runtime: { name: "node" } }, message: "two\nlines" };
    const lines = itemJsonLines(
      recorded(envelope(ENVELOPE_HEADER, [{ type: "event" }, event], [{ type: "transaction" }, transaction])),
    );
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain("\n");
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        receivedAt: "2025-01-01T12:00:01.234Z",
        project: "7",
        answeredStatus: 200,
        envelope: ENVELOPE_HEADER,
        item: { type: "event" },
        payload: event,
      },
      expect.objectContaining({ item: { type: "transaction" }, payload: transaction }),
    ]);
  });

  it("gives a binary item's size, not its bytes", () => {
    const bytes = Buffer.from([0, 10, 255, 10]);
    const [line] = itemJsonLines(
      recorded(envelope(ENVELOPE_HEADER, [{ type: "attachment", length: 4, filename: "a.bin" }, bytes])),
    );
    expect(JSON.parse(line!)).toMatchObject({
      item: { type: "attachment", filename: "a.bin" },
      binaryBytes: 4,
    });
    expect(JSON.parse(line!)).not.toHaveProperty("payload");
  });

  it("gives no line for an envelope without items", () => {
    expect(itemJsonLines(recorded(envelope(ENVELOPE_HEADER)))).toEqual([]);
  });
});
