import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import { normalizeAddress, type TrustFunction } from "~/http/trust-proxy.server";

/** Per-request facts lines, events and headers share; a Request cannot key them (loaders get a copy). */
interface RequestScope {
  readonly target: string;
  readonly incoming?: IncomingMessage;
  readonly answerRefusal?: RefusalAnswerer;
  requestId?: string;
  readonly trace?: ScopeTrace;
  digest?: string;
  refused?: boolean;
}

const scopes = new AsyncLocalStorage<RequestScope>();

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

/** Read for every log line: no lookup, no SDK call. */
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

/** Decided on first ask, so every line and the response agree: a trusted proxy's safe `X-Request-Id`, else a UUID. */
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

/** The path the client asked for (`/items/7.data`, not the loader's `/items/7`); after an origin, `//x` stays a path. */
export function requestedPath(request: Request): string {
  const target = scopes.getStore()?.target;
  return target === undefined ? new URL(request.url).pathname : new URL(`http://localhost${target}`).pathname;
}
