/**
 * The ingest endpoints (`/api/<project>/envelope/`, `/api/<project>/security/`):
 * one request routed, validated, recorded and answered.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseEnvelope, parseSecurityReport, type RecordedEnvelope } from "./envelope";
import {
  decodeBody,
  findPublicKey,
  headerString,
  HttpError,
  preflightHeaders,
  readBody,
  send,
  sendError,
} from "./http";
import type { RecorderState, ScriptedAnswer } from "./state";

type Endpoint = "envelope" | "security";

interface Route {
  endpoint: Endpoint;
  project: string;
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

/** Route, validate, record and answer one request. Never throws for client errors. */
export async function handleRequest(
  state: RecorderState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
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
