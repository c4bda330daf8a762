/**
 * A digest names one unexpected server error: shown on the error page, written
 * in the error log line and tagged on the Sentry event, so an operator goes from
 * what a visitor saw to the cause in one step. Random: it carries no secret.
 *
 * The framework replaces every server error before it leaves the server, so the
 * digest travels beside it: in an element with `DIGEST_ATTRIBUTE` on a rendered
 * page (read back at hydration), and in `DIGEST_HEADER` on a failed `.data`
 * response (digest-lookup.client.ts).
 */

/** What a digest looks like. */
export const DIGEST_PATTERN = /^[0-9a-f]{12}$/;

/** Response header that carries the digest of a failed single-fetch (`.data`) request to the browser. */
export const DIGEST_HEADER = "X-Error-Digest";

/** Attribute of the error page's element that shows the digest; `entry.client` reads it before hydrating. */
export const DIGEST_ATTRIBUTE = "data-error-digest";

/** Short enough to read aloud, safe to grep. */
export function createDigest(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** True when `value` has the shape of a digest; used to refuse anything else from headers or the DOM. */
export function isDigest(value: unknown): value is string {
  return typeof value === "string" && DIGEST_PATTERN.test(value);
}
