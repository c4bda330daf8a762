import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import { normalizeAddress, type TrustFunction } from "~/http/trust-proxy.server";

/**
 * Per-request facts that the log line, the Sentry event and the response headers share. A Request
 * object cannot key them: the framework hands loaders a copy and its own hooks the original.
 */
interface RequestScope {
  readonly target: string;
  readonly incoming?: IncomingMessage;
  readonly answerRefusal?: RefusalAnswerer;
  requestId?: string;
  /** The trace the request's log lines name, decided on arrival (app/monitoring/request-trace.server.ts). */
  readonly trace?: ScopeTrace;
  digest?: string;
  refused?: boolean;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Takes a refusal (app/refusals.server.ts), which the scope passes on without reading it. */
type RefusalAnswerer = (refusal: never) => void;

/** `traced`: the SDK has a span for the request, so a line can name the active one. */
export interface ScopeTrace {
  readonly traceId: string;
  readonly traced: boolean;
}

interface ScopeInputs {
  incoming?: IncomingMessage;
  answerRefusal?: RefusalAnswerer;
  trace?: ScopeTrace;
}

export function runInRequestScope<T>(target: string, handle: () => T, inputs: ScopeInputs = {}): T {
  return scopes.run(
    { target, ...inputs, requestId: inputs.incoming && requestIdOf(inputs.incoming) },
    handle,
  );
}

export function currentRequestId(): string | undefined {
  return scopes.getStore()?.requestId;
}

/** Read for every log line: kept in the scope, so no lookup and no SDK call. */
export function currentRequestLogIds(): { requestId?: string; trace?: ScopeTrace } | undefined {
  return scopes.getStore();
}

export function currentIncomingRequest(): IncomingMessage | undefined {
  return scopes.getStore()?.incoming;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export const REQUEST_ID_HEADER = "X-Request-Id";

const ids = new WeakMap<IncomingMessage, string>();

/** Peers whose `X-Request-Id` is kept: anyone else could make their lines look like another request's. */
let trustedPeers: TrustFunction | undefined;

export function trustRequestIdsFrom(trust: TrustFunction): void {
  trustedPeers = trust;
}

/**
 * Decided the first time anything asks, so the access, refusal and error lines and the response agree:
 * the `X-Request-Id` a trusted proxy sent when it is safe to log, else a fresh UUID.
 */
export function requestIdOf(incoming: IncomingMessage): string {
  let id = ids.get(incoming);
  if (id === undefined) {
    const header = incoming.headers[REQUEST_ID_HEADER.toLowerCase()];
    const peer = normalizeAddress(incoming.socket?.remoteAddress ?? "");
    const trusted = trustedPeers?.(peer, 0) === true;
    id = requestIdFrom(trusted && typeof header === "string" ? header : undefined);
    ids.set(incoming, id);
  }
  return id;
}

/** A fresh UUID outside a request scope (its sender is unknown). */
export function currentOrNewRequestId(): string {
  const scope = scopes.getStore();
  if (scope?.requestId) return scope.requestId;
  const id = crypto.randomUUID();
  if (scope) scope.requestId = id;
  return id;
}

function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** The page shows the first digest when a request fails more than once. */
export function recordDigest(digest: string): void {
  const scope = scopes.getStore();
  if (scope && !scope.digest) scope.digest = digest;
}

/** Has the response answer the refusal; false when the request was already refused, so it is logged once. */
export function recordRefusal<R>(refusal: R): boolean {
  const scope = scopes.getStore();
  if (!scope) return true;
  if (scope.refused) return false;
  scope.refused = true;
  (scope.answerRefusal as ((refusal: R) => void) | undefined)?.(refusal);
  return true;
}

export function currentDigest(): string | undefined {
  return scopes.getStore()?.digest;
}

/**
 * The path the client asked for (`/items/7.data` for a single fetch, though the loader's copy says
 * `/items/7`), read as the framework's server adapter does: appended to an origin, so `//x` stays a path.
 */
export function requestedPath(request: Request): string {
  const target = scopes.getStore()?.target;
  return target === undefined ? new URL(request.url).pathname : new URL(`http://localhost${target}`).pathname;
}
