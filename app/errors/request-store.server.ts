/**
 * Per-request facts that the log line, the Sentry event and the response
 * headers share: the request id, and the digest of the request's first
 * unexpected error. Kept in WeakMaps keyed by the Request object Remix hands
 * to every server hook of one request (handleError, handleDataRequest, the
 * document renderer), so nothing outlives the request.
 */
const requestIds = new WeakMap<Request, string>();
const digests = new WeakMap<Request, string>();

/** A caller's `X-Request-Id` is kept only when it is a short token that is safe to log. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export const REQUEST_ID_HEADER = "X-Request-Id";

/** The request's id: the caller's `X-Request-Id` when it is safe, else a fresh UUID. */
export function requestIdFor(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    const incoming = request.headers.get(REQUEST_ID_HEADER);
    id = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    requestIds.set(request, id);
  }
  return id;
}

/** Records a digest; the page shows the first one when a request fails more than once. */
export function recordDigest(request: Request, digest: string): void {
  if (!digests.has(request)) digests.set(request, digest);
}

/** The digest of the first unexpected error of `request`, if it had one. */
export function digestFor(request: Request): string | undefined {
  return digests.get(request);
}
