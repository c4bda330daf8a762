/**
 * Envelopes for the recorder's unit tests, built the way the SDKs build them.
 */

export const ENVELOPE_HEADER = {
  event_id: "a".repeat(32),
  sent_at: "2025-01-01T00:00:00.000Z",
  sdk: { name: "test" },
};

export const errorEvent = {
  event_id: "a".repeat(32),
  level: "error",
  exception: {
    values: [
      { type: "Error", value: "root cause" },
      { type: "TypeError", value: "boom" },
    ],
  },
  tags: { digest: "123456" },
};

export const transaction = {
  type: "transaction",
  transaction: "GET /products/:id",
  contexts: { trace: { op: "http.server", trace_id: "b".repeat(32), span_id: "c".repeat(16) } },
  spans: [{ op: "db" }, { op: "http.client" }, { op: "function.remix.loader" }],
};

/** Build an envelope the way the SDK serializer does: items joined by "\n", no trailing newline. */
export function envelope(header: object, ...items: Array<[object, string | Buffer | object]>): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))];
  for (const [itemHeader, payload] of items) {
    const bytes = Buffer.isBuffer(payload)
      ? payload
      : Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload));
    parts.push(Buffer.from(`\n${JSON.stringify(itemHeader)}\n`), bytes);
  }
  return Buffer.concat(parts);
}

export const eventEnvelope = (): Buffer => envelope(ENVELOPE_HEADER, [{ type: "event" }, errorEvent]);
