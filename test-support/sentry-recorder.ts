/**
 * Sentry-protocol recorder: a real HTTP server on 127.0.0.1 that the real
 * Sentry SDKs (browser and node) can use as their DSN, so e2e tests can assert
 * on what the SDKs actually put on the wire.
 *
 * It speaks just enough of the ingest protocol (the part Relay implements) to
 * keep the SDKs happy:
 *   - `POST /api/<project>/envelope/` (trailing slash optional) with envelope bodies,
 *     optionally `Content-Encoding: gzip | deflate | br`;
 *   - `POST /api/<project>/security/` with CSP reports, recorded as an envelope
 *     holding one `csp_report` item;
 *   - auth via `?sentry_key=`, `X-Sentry-Auth` / `Authorization: Sentry sentry_key=...`,
 *     or (like Relay, which is what makes tunnels work) the `dsn` in the envelope header;
 *   - CORS, so browser pages on another origin can post and read rate-limit headers;
 *   - scripted answers (`respondNext`) to exercise the SDKs' rate-limit / retry paths.
 *
 * Only Node built-ins are used so the module can run anywhere the tests run.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import * as zlib from "node:zlib";

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

/** Predicate used by `waitForItem` / `waitForItems`. Throwing counts as "no match". */
export type ItemPredicate = (item: EnvelopeItem, env: RecordedEnvelope) => boolean;

/** Handle on a running recorder. */
export interface Recorder {
  /** The port actually bound (useful with `port: 0`). */
  readonly port: number;
  /** `http://127.0.0.1:PORT` (or the configured host). */
  readonly origin: string;
  /** A DSN pointing at this recorder. Defaults: project `"1"`, public key `"public"`. */
  dsn(project?: string, publicKey?: string): string;
  /** Everything recorded so far, in arrival order (a live array; do not mutate it). */
  readonly envelopes: RecordedEnvelope[];
  /** All recorded items flattened in arrival order, optionally only those of one type. */
  items(type?: string): EnvelopeItem[];
  /**
   * Resolves with the first item (already recorded or future) matching `predicate`.
   * Rejects after `timeout` ms (default 20 000) with
   * `recorder: no item matched within Nms (seen: ...)`, or when the recorder closes.
   */
  waitForItem(predicate: ItemPredicate, opts?: { timeout?: number }): Promise<EnvelopeItem>;
  /** Like `waitForItem`, but waits until `count` items matched and resolves with the first `count`. */
  waitForItems(predicate: ItemPredicate, opts: { count: number; timeout?: number }): Promise<EnvelopeItem[]>;
  /**
   * Queue a scripted answer: the next `count` otherwise-acceptable envelope requests
   * (valid body, authenticated) are answered with `status` and `headers` instead of 200.
   * They are still recorded, with `answeredStatus` set. Calls queue up in order.
   * Applies to the envelope endpoint only, not to CSP reports.
   */
  respondNext(count: number, status: number, headers?: Record<string, string>): void;
  /** Number of POSTs to the envelope endpoint, including refused ones (400/401/413...). */
  requestCount(): number;
  /** Forget recorded envelopes, the request count and queued answers. Pending waiters keep waiting. */
  clear(): void;
  /** Stop the server, drop keep-alive sockets and reject pending waiters. Idempotent. */
  close(): Promise<void>;
}

/** Options for `startRecorder`. */
export interface RecorderOptions {
  /** Port to bind; `0` (the default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** Receives one line per recorded item and per refused request. Silent by default. */
  log?: (line: string) => void;
}

/** Largest accepted body, both as sent and after decompression. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;
const DEFAULT_WAIT_TIMEOUT_MS = 20_000;
/** How many item summaries a timeout message lists before eliding the rest. */
const MAX_SEEN_IN_MESSAGE = 20;
const NEWLINE = 0x0a;
/** Item types whose payload is binary by definition; never try to JSON-parse them. */
const BINARY_ITEM_TYPES = new Set(["attachment", "replay_recording", "replay_video"]);

const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  // The browser SDK reads these to honour rate limits; without "expose" it can't see them cross-origin.
  "Access-Control-Expose-Headers": "x-sentry-rate-limits, retry-after",
};
const PREFLIGHT_ALLOWED_HEADERS = [
  "content-type",
  "content-encoding",
  "x-sentry-auth",
  "sentry-trace",
  "baggage",
];

// ---------------------------------------------------------------------------
// Envelope parsing (pure)
// ---------------------------------------------------------------------------

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------
// Summaries (CLI output and timeout messages)
// ---------------------------------------------------------------------------

/**
 * One-line, human-oriented summary of an item, e.g.
 * `event [error] TypeError: boom digest=123` or `transaction GET /x op=http.server spans=3`.
 */
export function summarizeItem(item: EnvelopeItem): string {
  const p: unknown = item.payload;
  // Binary or non-object payloads (attachments, replays...): name and size are all we can say.
  if (!isRecord(p) || Buffer.isBuffer(p)) {
    return oneLine(join(item.type, str(item.header.filename), `(${item.raw.length} bytes)`));
  }
  const detail = SUMMARIZERS[item.type]?.(p);
  return oneLine(join(item.type, detail));
}

type Summarizer = (payload: Record<string, unknown>) => string | undefined;

const SUMMARIZERS: Record<string, Summarizer> = {
  event: summarizeEvent,
  transaction: (p) => {
    const trace = traceContext(p);
    const spans = Array.isArray(p.spans) ? p.spans.length : 0;
    return join(str(p.transaction) ?? "(unnamed)", kv("op", trace?.op), `spans=${spans}`);
  },
  feedback: (p) => {
    const contexts = isRecord(p.contexts) ? p.contexts : {};
    const feedback = isRecord(contexts.feedback) ? contexts.feedback : {};
    return quote(str(feedback.message));
  },
  session: (p) => join(kv("status", p.status), kv("errors", p.errors)),
  sessions: (p) => `aggregates=${Array.isArray(p.aggregates) ? p.aggregates.length : 0}`,
  client_report: (p) => {
    const discarded = Array.isArray(p.discarded_events) ? p.discarded_events : [];
    return discarded
      .filter(isRecord)
      .map((d) => `${String(d.reason)}:${String(d.category)}=${String(d.quantity)}`)
      .join(" ");
  },
  check_in: (p) => join(str(p.monitor_slug), kv("status", p.status)),
  span: (p) => join(str(p.name) ?? str(p.description), kv("op", p.op)),
  log: (p) => `items=${Array.isArray(p.items) ? p.items.length : 1}`,
  csp_report: (p) => {
    const report = isRecord(p["csp-report"]) ? p["csp-report"] : p;
    return join(
      str(report["violated-directive"]) ?? str(report["effective-directive"]),
      kv("blocked", report["blocked-uri"]),
    );
  },
};

/** Level, the main exception (last in `exception.values`) or message, and the Remix error digest tag. */
function summarizeEvent(p: Record<string, unknown>): string {
  const exceptions = isRecord(p.exception) && Array.isArray(p.exception.values) ? p.exception.values : [];
  const main: unknown = exceptions[exceptions.length - 1];
  let what: string | undefined;
  if (isRecord(main)) {
    what = [str(main.type), str(main.value)].filter(Boolean).join(": ");
  } else {
    const logentry = isRecord(p.logentry) ? p.logentry : {};
    what = quote(str(p.message) ?? str(logentry.formatted) ?? str(logentry.message));
  }
  return join(`[${str(p.level) ?? "error"}]`, what, kv("digest", tagValue(p.tags, "digest")));
}

/** Tags are an object in modern SDKs, but the protocol also allows `[key, value]` pairs. */
function tagValue(tags: unknown, name: string): unknown {
  if (Array.isArray(tags)) {
    const pair: unknown = tags.find((t) => Array.isArray(t) && t[0] === name);
    return Array.isArray(pair) ? pair[1] : undefined;
  }
  return isRecord(tags) ? tags[name] : undefined;
}

function traceContext(p: Record<string, unknown>): Record<string, unknown> | undefined {
  return isRecord(p.contexts) && isRecord(p.contexts.trace) ? p.contexts.trace : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function kv(key: string, value: unknown): string | undefined {
  return value === undefined || value === null || value === "" ? undefined : `${key}=${String(value)}`;
}

function quote(value: string | undefined): string | undefined {
  return value === undefined ? undefined : JSON.stringify(truncate(value));
}

function join(...parts: Array<string | undefined>): string {
  return parts.filter((part) => part !== undefined && part !== "").join(" ");
}

function truncate(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Summaries must stay on one line: exception values often contain newlines. */
function oneLine(text: string): string {
  return truncate(text.replace(/\s*[\r\n]+\s*/g, " ⏎ "), 240);
}

// ---------------------------------------------------------------------------
// HTTP plumbing
// ---------------------------------------------------------------------------

type Endpoint = "envelope" | "security";

interface Route {
  endpoint: Endpoint;
  project: string;
}

/** Refusal carrying the HTTP status to answer with. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const ROUTE_PATTERN = /^\/api\/([^/]+)\/(envelope|security)\/?$/;

function matchRoute(pathname: string): Route | undefined {
  const m = ROUTE_PATTERN.exec(pathname);
  if (!m) return undefined;
  try {
    return { project: decodeURIComponent(m[1] ?? ""), endpoint: m[2] as Endpoint };
  } catch {
    return undefined; // malformed %-escape in the project: not a route we serve
  }
}

/**
 * Read the whole body, but stop buffering past the limit. We keep draining instead
 * of destroying the socket so the client reliably gets to read our 413.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) reject(new HttpError(413, `body larger than ${MAX_BODY_BYTES} bytes`));
      else resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
    // Without this, a client that disconnects mid-body would leave the promise pending forever.
    req.on("close", () => {
      if (!req.complete) reject(new Error("request aborted before the body was complete"));
    });
  });
}

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/** Undo `Content-Encoding` (applied in listed order, so undone in reverse). */
async function decodeBody(body: Buffer, contentEncoding: string | undefined): Promise<Buffer> {
  const encodings = (contentEncoding ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== "" && e !== "identity")
    .reverse();
  let out = body;
  for (const encoding of encodings) out = await decodeOne(out, encoding);
  return out;
}

async function decodeOne(body: Buffer, encoding: string): Promise<Buffer> {
  // maxOutputLength guards against decompression bombs blowing up the test process.
  const opts = { maxOutputLength: MAX_BODY_BYTES };
  try {
    switch (encoding) {
      case "gzip":
      case "x-gzip":
        return await gunzip(body, opts);
      case "deflate":
        // HTTP "deflate" means zlib-wrapped, but some clients send raw deflate; accept both.
        return await inflate(body, opts).catch(() => inflateRaw(body, opts));
      case "br":
        return await brotliDecompress(body, opts);
      default:
        throw new HttpError(415, `unsupported Content-Encoding: ${encoding}`);
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw new HttpError(413, `decompressed body larger than ${MAX_BODY_BYTES} bytes`);
    }
    throw new HttpError(400, `cannot decode ${encoding} body: ${(err as Error).message}`);
  }
}

/** `sentry_key` from the query, `X-Sentry-Auth`/`Authorization: Sentry ...`, or the envelope header DSN. */
function findPublicKey(
  req: IncomingMessage,
  url: URL,
  envelopeHeader: Record<string, unknown>,
): string | undefined {
  const fromQuery = url.searchParams.get("sentry_key");
  if (fromQuery) return fromQuery;
  for (const name of ["x-sentry-auth", "authorization"]) {
    const value = req.headers[name];
    const match = typeof value === "string" ? /\bsentry_key\s*=\s*([^,\s]+)/i.exec(value) : null;
    if (match?.[1]) return match[1];
  }
  // Relay accepts the DSN from the envelope header; tunnels rely on this, so the recorder does too.
  if (typeof envelopeHeader.dsn === "string") {
    try {
      return new URL(envelopeHeader.dsn).username || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A CSP report (legacy `application/csp-report` or Reporting API JSON) as a one-item envelope. */
function parseSecurityReport(body: Buffer): {
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

function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: string): void {
  if (res.headersSent) return;
  const hasBody = body !== undefined && status !== 204 && status !== 304;
  res.writeHead(status, {
    ...CORS_HEADERS,
    ...(hasBody ? { "Content-Type": "application/json" } : {}),
    ...headers,
  });
  res.end(hasBody ? body : undefined);
}

function sendError(
  res: ServerResponse,
  status: number,
  detail: string,
  extra: Record<string, string> = {},
): void {
  send(res, status, extra, JSON.stringify({ detail }));
}

function preflightHeaders(req: IncomingMessage): Record<string, string> {
  // Echo whatever the page asks for on top of the known Sentry headers, so custom
  // transports with extra headers still get through.
  const requested = String(req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return {
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": [...new Set([...PREFLIGHT_ALLOWED_HEADERS, ...requested])].join(", "),
    "Access-Control-Max-Age": "86400",
  };
}

// ---------------------------------------------------------------------------
// Recorder
// ---------------------------------------------------------------------------

interface ScriptedAnswer {
  remaining: number;
  status: number;
  headers: Record<string, string>;
}

interface Waiter {
  /** Offers one newly recorded item; returns true when the waiter is done. */
  offer(item: EnvelopeItem, env: RecordedEnvelope): boolean;
  fail(error: Error): void;
}

/**
 * Start a recorder listening on `host:port` (default `127.0.0.1`, random port).
 * Resolves once the server is listening.
 */
export async function startRecorder(opts: RecorderOptions = {}): Promise<Recorder> {
  const host = opts.host ?? "127.0.0.1";
  const log = opts.log ?? (() => {});
  const state = new RecorderState(log);
  const server = createServer((req, res) => {
    handleRequest(state, req, res).catch((err: unknown) => {
      sendError(res, 500, `recorder bug: ${(err as Error).message}`);
    });
  });
  await listen(server, opts.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${originHost(host)}:${port}`;
  let closing: Promise<void> | undefined;

  return {
    port,
    origin,
    dsn: (project = "1", publicKey = "public") =>
      `http://${publicKey}@${originHost(host)}:${port}/${project}`,
    get envelopes() {
      return state.envelopes;
    },
    items: (type) => state.items(type),
    waitForItem: (predicate, o) =>
      state.waitFor(predicate, 1, o?.timeout).then((found) => found[0] as EnvelopeItem),
    waitForItems: (predicate, o) => state.waitFor(predicate, o.count, o.timeout),
    respondNext: (count, status, headers) => state.respondNext(count, status, headers),
    requestCount: () => state.envelopeRequests,
    clear: () => state.clear(),
    close: () => {
      closing ??= closeServer(server, state);
      return closing;
    },
  };
}

/** Mutable recorder state, kept apart from the HTTP layer so each handler stays small. */
class RecorderState {
  readonly envelopes: RecordedEnvelope[] = [];
  envelopeRequests = 0;
  closed = false;
  private readonly script: ScriptedAnswer[] = [];
  private readonly waiters = new Set<Waiter>();

  constructor(readonly log: (line: string) => void) {}

  items(type?: string): EnvelopeItem[] {
    const all = this.envelopes.flatMap((env) => env.items);
    return type === undefined ? all : all.filter((item) => item.type === type);
  }

  record(env: RecordedEnvelope): void {
    this.envelopes.push(env);
    const suffix = env.answeredStatus === 200 ? "" : ` (answered ${env.answeredStatus})`;
    if (env.items.length === 0) this.log(`[${env.project}] (empty envelope)${suffix}`);
    for (const item of env.items) {
      this.log(`[${env.project}] ${summarizeItem(item)}${suffix}`);
      for (const waiter of this.waiters) {
        if (waiter.offer(item, env)) this.waiters.delete(waiter);
      }
    }
  }

  respondNext(count: number, status: number, headers: Record<string, string> = {}): void {
    if (!Number.isInteger(count) || count < 0) {
      throw new RangeError(`respondNext: invalid count ${count}`);
    }
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      throw new RangeError(`respondNext: invalid status ${status}`);
    }
    if (count > 0) this.script.push({ remaining: count, status, headers: { ...headers } });
  }

  /** Consume the next scripted answer, if any. */
  takeScripted(): ScriptedAnswer | undefined {
    const next = this.script[0];
    if (!next) return undefined;
    next.remaining -= 1;
    if (next.remaining === 0) this.script.shift();
    return next;
  }

  clear(): void {
    this.envelopes.length = 0;
    this.envelopeRequests = 0;
    this.script.length = 0;
  }

  waitFor(
    predicate: ItemPredicate,
    count: number,
    timeout = DEFAULT_WAIT_TIMEOUT_MS,
  ): Promise<EnvelopeItem[]> {
    if (!Number.isInteger(count) || count < 1) {
      return Promise.reject(
        new RangeError(`recorder: waitForItems needs a positive integer count, got ${count}`),
      );
    }
    return new Promise((resolve, reject) => {
      const found: EnvelopeItem[] = [];
      let lastError: unknown;
      const matches = (item: EnvelopeItem, env: RecordedEnvelope): boolean => {
        try {
          return predicate(item, env);
        } catch (err) {
          // Predicates like `i => i.payload.exception.values[0]...` throw on other item
          // types; treat that as "not this one" but mention it if we time out.
          lastError = err;
          return false;
        }
      };
      for (const env of this.envelopes) {
        for (const item of env.items) if (matches(item, env)) found.push(item);
      }
      if (found.length >= count) return resolve(found.slice(0, count));
      if (this.closed) return reject(new Error("recorder: closed, nothing more will arrive"));

      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(this.timeoutMessage(found.length, count, timeout, lastError)));
      }, timeout);
      const waiter: Waiter = {
        offer: (item, env) => {
          if (matches(item, env)) found.push(item);
          if (found.length < count) return false;
          clearTimeout(timer);
          resolve(found.slice(0, count));
          return true;
        },
        fail: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Called on close: nothing more can arrive, so fail fast instead of at each timeout. */
  failWaiters(error: Error): void {
    this.closed = true;
    for (const waiter of this.waiters) waiter.fail(error);
    this.waiters.clear();
  }

  private timeoutMessage(matched: number, count: number, timeout: number, lastError: unknown): string {
    const what = count === 1 ? "no item matched" : `only ${matched} of ${count} items matched`;
    const predicateError = lastError
      ? `; last predicate error: ${(lastError as Error).message ?? String(lastError)}`
      : "";
    return `recorder: ${what} within ${timeout}ms (seen: ${this.seenSummary()})${predicateError}`;
  }

  private seenSummary(): string {
    const all = this.items().map(summarizeItem);
    if (all.length === 0) return "nothing";
    const shown = all.slice(0, MAX_SEEN_IN_MESSAGE).join("; ");
    return all.length > MAX_SEEN_IN_MESSAGE
      ? `${shown}; … and ${all.length - MAX_SEEN_IN_MESSAGE} more`
      : shown;
  }
}

/** Route, validate, record and answer one request. Never throws for client errors. */
async function handleRequest(state: RecorderState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://recorder.invalid");
  const route = matchRoute(url.pathname);
  if (!route) return sendError(res, 404, `no ingest endpoint at ${url.pathname}`);
  if (req.method === "OPTIONS") return send(res, 204, preflightHeaders(req));
  if (req.method !== "POST") {
    return sendError(res, 405, `${req.method ?? "?"} not allowed`, { Allow: "POST, OPTIONS" });
  }
  if (route.endpoint === "envelope") state.envelopeRequests += 1;

  let received: Awaited<ReturnType<typeof receive>>;
  try {
    received = await receive(state, req, url, route);
  } catch (err) {
    const status = err instanceof HttpError ? err.status : 400;
    const message = (err as Error).message;
    state.log(`[${route.project}] refused ${status}: ${message} (${req.method} ${req.url ?? ""})`);
    // A 413 may leave unread bytes on the socket; don't try to reuse it.
    return sendError(res, status, message, status === 413 ? { Connection: "close" } : {});
  }
  const { env, scripted } = received;
  // Record before answering, so a client that awaited the response finds its envelope.
  state.record(env);
  if (!scripted || scripted.status < 300) send(res, env.answeredStatus, scripted?.headers ?? {}, "{}");
  else sendError(res, scripted.status, "recorder: scripted response", scripted.headers);
}

/**
 * Read, decode, parse and authenticate the body, and pick the answer.
 * Throws HttpError (or a plain Error from the parsers, meaning 400) on refusal.
 */
async function receive(
  state: RecorderState,
  req: IncomingMessage,
  url: URL,
  route: Route,
): Promise<{ env: RecordedEnvelope; scripted: ScriptedAnswer | undefined }> {
  const receivedBody = await readBody(req);
  const receivedAt = Date.now();
  const rawBody = await decodeBody(receivedBody, headerString(req.headers["content-encoding"]));
  const parsed = route.endpoint === "envelope" ? parseEnvelope(rawBody) : parseSecurityReport(rawBody);
  if (!findPublicKey(req, url, parsed.header)) {
    throw new HttpError(401, "missing sentry_key (query string, X-Sentry-Auth header or envelope dsn)");
  }
  // Only consumed once the envelope is known to be acceptable, like Relay's rate limiting.
  const scripted = route.endpoint === "envelope" ? state.takeScripted() : undefined;
  const env: RecordedEnvelope = {
    receivedAt,
    project: route.project,
    path: req.url ?? url.pathname,
    headers: { ...req.headers },
    header: parsed.header,
    items: parsed.items,
    rawBody,
    answeredStatus: scripted?.status ?? 200,
  };
  return { env, scripted };
}

function headerString(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function closeServer(server: Server, state: RecorderState): Promise<void> {
  state.failWaiters(new Error("recorder: closed while waiting"));
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    // close() alone waits for keep-alive sockets (browsers, undici, SDK agents) to time out.
    server.closeAllConnections();
  });
}

/** Host part usable in a URL: wildcard binds are reached via loopback; IPv6 needs brackets. */
function originHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}
