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
 * This file is the public API (`startRecorder`, the types, `parseEnvelope`,
 * `summarizeItem`, `itemJsonLines`); its parts are in sentry-recorder/: envelope.ts
 * (the recorded data and its parsers), summary.ts (one-line summaries),
 * json-lines.ts (the full view, one JSON line per item), http.ts
 * (bodies, auth, CORS answers), ingest.ts (one request, start to answer) and
 * state.ts (what is recorded, scripted answers, waiters).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { EnvelopeItem, RecordedEnvelope } from "./sentry-recorder/envelope";
import { sendError } from "./sentry-recorder/http";
import { handleRequest } from "./sentry-recorder/ingest";
import { RecorderState, type ItemPredicate } from "./sentry-recorder/state";

export { parseEnvelope, type EnvelopeItem, type RecordedEnvelope } from "./sentry-recorder/envelope";
export { itemJsonLines } from "./sentry-recorder/json-lines";
export { summarizeItem } from "./sentry-recorder/summary";
export { logRecords, logRecordsOf, type LogRecord } from "./sentry-recorder/log-records";
export type { ItemPredicate } from "./sentry-recorder/state";

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
  /** Receives each envelope as it is recorded (before its items' lines go to `log`). */
  onEnvelope?: (envelope: RecordedEnvelope) => void;
}

/**
 * Start a recorder listening on `host:port` (default `127.0.0.1`, random port).
 * Resolves once the server is listening.
 */
export async function startRecorder(opts: RecorderOptions = {}): Promise<Recorder> {
  const host = opts.host ?? "127.0.0.1";
  const log = opts.log ?? (() => {});
  const state = new RecorderState(log, opts.onEnvelope);
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
