/**
 * The recorder's data: envelopes and items as recorded, and the parsers that
 * make them from a (decompressed) request body. Pure, no I/O.
 */

/** One item of an envelope: its header line and its (parsed when JSON) payload. */
export interface EnvelopeItem {
  /** Item type from the item header, e.g. `event`, `transaction`, `attachment`, `csp_report`. */
  type: string;
  /** The full item header (type, length, filename, content_type, item_count...). */
  header: Record<string, unknown>;
  /**
   * Parsed JSON when the item is JSON, else the raw bytes as a Buffer
   * (always a Buffer for `attachment`, `replay_recording` and `replay_video`).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- payload shape depends on the item type; tests narrow it themselves.
  payload: any;
  /** The payload bytes exactly as received (after HTTP decompression). */
  raw: Buffer;
}

/** One accepted request to an ingest endpoint, as recorded by the server. */
export interface RecordedEnvelope {
  /** `Date.now()` when the request body had been fully read. */
  receivedAt: number;
  /** Project id from the URL (`/api/<project>/...`). */
  project: string;
  /** Request target as sent, including the query string (e.g. `/api/1/envelope/?sentry_key=public`). */
  path: string;
  /** Request headers as Node parsed them (lower-cased names). */
  headers: Record<string, string | string[] | undefined>;
  /** Envelope header (dsn, event_id, sent_at, sdk, trace...); `{}` for CSP reports. */
  header: Record<string, unknown>;
  /** Items in body order. */
  items: EnvelopeItem[];
  /** The request body after HTTP decompression. */
  rawBody: Buffer;
  /** HTTP status the recorder answered with: 200, or the status queued by `respondNext`. */
  answeredStatus: number;
}

const NEWLINE = 0x0a;
/** Item types whose payload is binary by definition; never try to JSON-parse them. */
const BINARY_ITEM_TYPES = new Set(["attachment", "replay_recording", "replay_video"]);

/**
 * Parse a (decompressed) Sentry envelope body into its header and items.
 * Pure; throws an Error describing the problem when the body is malformed.
 */
export function parseEnvelope(body: Buffer): {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
} {
  const headerEnd = lineEnd(body, 0);
  const header = parseJsonObject(body.subarray(0, headerEnd), "envelope header");
  const items: EnvelopeItem[] = [];
  let pos = headerEnd + 1;
  while (true) {
    pos = skipBlankLines(body, pos);
    if (pos >= body.length) break;
    const { item, next } = parseItem(body, pos, items.length);
    items.push(item);
    pos = next;
  }
  return { header, items };
}

/** Parse one item starting at `start` (its header line); returns it and the offset after it. */
function parseItem(body: Buffer, start: number, index: number): { item: EnvelopeItem; next: number } {
  const headerEnd = lineEnd(body, start);
  const header = parseJsonObject(body.subarray(start, headerEnd), `item #${index} header`);
  if (typeof header.type !== "string" || header.type === "") {
    throw new Error(`item #${index} header has no "type"`);
  }
  const payloadStart = Math.min(headerEnd + 1, body.length);
  const length = header.length;
  let payloadEnd: number;
  if (length === undefined || length === null) {
    // Without a length the payload is exactly one line.
    payloadEnd = lineEnd(body, payloadStart);
  } else {
    if (typeof length !== "number" || !Number.isInteger(length) || length < 0) {
      throw new Error(`item #${index} (${header.type}) has an invalid length: ${JSON.stringify(length)}`);
    }
    payloadEnd = payloadStart + length;
    if (payloadEnd > body.length) {
      throw new Error(
        `item #${index} (${header.type}) declares length ${length} but only ${body.length - payloadStart} bytes remain`,
      );
    }
  }
  const raw = body.subarray(payloadStart, payloadEnd);
  const next = body[payloadEnd] === NEWLINE ? payloadEnd + 1 : payloadEnd;
  return {
    item: { type: header.type, header, payload: decodePayload(header.type, raw), raw },
    next,
  };
}

/** JSON when the type allows it and the bytes parse; otherwise the Buffer itself. */
function decodePayload(type: string, raw: Buffer): unknown {
  if (BINARY_ITEM_TYPES.has(type) || raw.length === 0) return raw;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return raw;
  }
}

/** Offset of the next "\n" at or after `from`, or the body length. */
function lineEnd(body: Buffer, from: number): number {
  const i = body.indexOf(NEWLINE, from);
  return i === -1 ? body.length : i;
}

/** Skip empty lines (tolerated between/after items; some senders add a trailing newline). */
function skipBlankLines(body: Buffer, pos: number): number {
  let p = pos;
  while (p < body.length && (body[p] === NEWLINE || body[p] === 0x0d)) p++;
  return p;
}

function parseJsonObject(bytes: Buffer, what: string): Record<string, unknown> {
  if (bytes.length === 0) throw new Error(`${what} is empty`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (err) {
    throw new Error(`${what} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isRecord(value)) throw new Error(`${what} is not a JSON object`);
  return value;
}

/** A CSP report (legacy `application/csp-report` or Reporting API JSON) as a one-item envelope. */
export function parseSecurityReport(body: Buffer): {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
} {
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch (err) {
    throw new Error(`security report is not valid JSON: ${(err as Error).message}`);
  }
  return {
    header: {},
    items: [{ type: "csp_report", header: { type: "csp_report" }, payload, raw: body }],
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
