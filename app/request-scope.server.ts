import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import { normalizeAddress, type TrustFunction } from "~/http/trust-proxy.server";

/**
 * The request scope: per-request facts that the log line, the Sentry event and
 * the response headers share (request id, first digest, the target the client
 * sent). One scope per HTTP request, opened before the framework sees it
 * (server/adapter/http-server.ts). A Request object cannot key them: the
 * framework hands loaders a copy and its own hooks the original.
 */
interface RequestScope {
  /** The request target as the client sent it (path and query). */
  readonly target: string;
  /** The request as Node received it (monitoring reads its trace and headers). */
  readonly incoming?: IncomingMessage;
  /** Answers a refusal on this request's response (server/adapter/refusal-response.ts). */
  readonly answerRefusal?: RefusalAnswerer;
  requestId?: string;
  digest?: string;
  refused?: boolean;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Takes a refusal (app/refusals.server.ts), which the scope passes on without reading it. */
type RefusalAnswerer = (refusal: never) => void;

/** What the pre-app handlers hand the request's scope besides its target. */
interface ScopeInputs {
  incoming?: IncomingMessage;
  answerRefusal?: RefusalAnswerer;
}

/** Runs `handle` (the framework's handling of one HTTP request) in a scope of its own. */
export function runInRequestScope<T>(target: string, handle: () => T, inputs: ScopeInputs = {}): T {
  return scopes.run(
    { target, ...inputs, requestId: inputs.incoming && requestIdOf(inputs.incoming) },
    handle,
  );
}

/** The current request's id, when a request scope is open (the logger adds it to every line). */
export function currentRequestId(): string | undefined {
  return scopes.getStore()?.requestId;
}

/** The current request as Node received it, when it came through the pre-app handlers. */
export function currentIncomingRequest(): IncomingMessage | undefined {
  return scopes.getStore()?.incoming;
}

/** A caller's `X-Request-Id` is kept only when it is a short token that is safe to log. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export const REQUEST_ID_HEADER = "X-Request-Id";

const ids = new WeakMap<IncomingMessage, string>();

/**
 * Which peers may hand a request its id: the proxies TRUST_PROXY trusts
 * (server/boot.ts sets it), none until then. Anyone else could make the lines
 * of their request look like another's, so their id is replaced.
 */
let trustedPeers: TrustFunction | undefined;

export function trustRequestIdsFrom(trust: TrustFunction): void {
  trustedPeers = trust;
}

/**
 * The id of a request as Node received it, decided the first time anything
 * asks (the pre-app handlers, before anything else: server/pre-app/response-headers.ts),
 * so the access line, the refusal and error lines and the response agree: the
 * `X-Request-Id` a trusted proxy sent when it is safe to log, else a fresh UUID.
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

/** The request's id, the same for the whole request; a fresh UUID outside a request scope (its sender is unknown). */
export function currentOrNewRequestId(): string {
  const scope = scopes.getStore();
  if (scope?.requestId) return scope.requestId;
  const id = crypto.randomUUID();
  if (scope) scope.requestId = id;
  return id;
}

/** The caller's `X-Request-Id` value when it is safe to log, else a fresh UUID. */
function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** Records a digest; the page shows the first one when a request fails more than once. */
export function recordDigest(digest: string): void {
  const scope = scopes.getStore();
  if (scope && !scope.digest) scope.digest = digest;
}

/**
 * Records that the request is refused (app/refusals.server.ts) and has
 * its response answer it; false when it already was, so it is logged once.
 */
export function recordRefusal<R>(refusal: R): boolean {
  const scope = scopes.getStore();
  if (!scope) return true;
  if (scope.refused) return false;
  scope.refused = true;
  (scope.answerRefusal as ((refusal: R) => void) | undefined)?.(refusal);
  return true;
}

/** The digest of the current request's first unexpected error, if it had one. */
export function currentDigest(): string | undefined {
  return scopes.getStore()?.digest;
}

/**
 * The path the client asked for (`/items/7.data` for a single fetch, though
 * the loader's copy says `/items/7`), as the framework's server adapter
 * reads it: the target appended to an origin, so `//x` stays a path.
 */
export function requestedPath(request: Request): string {
  const target = scopes.getStore()?.target;
  return target === undefined ? new URL(request.url).pathname : new URL(`http://localhost${target}`).pathname;
}
