/**
 * The digest protocol. A digest names one unexpected server error. It is
 * shown on the error page, written in the server's error log line and set as
 * the `digest` tag of the Sentry event, so an operator can go from what a
 * visitor saw to the cause in one step. It is random, so it carries no error
 * text, no stack and no secret.
 *
 * Remix replaces every server error with `Error("Unexpected Server Error")`
 * before it leaves the server, so the digest cannot ride on the error. It
 * travels beside it instead, keyed by the page's pathname:
 *  - server render: `entry.server` looks up the digest `handleError` gave the
 *    request (server-failure.server.ts) and the page shows it in an element
 *    carrying `DIGEST_ATTRIBUTE` (error-page.tsx);
 *  - hydration: `entry.client` reads it back from that element;
 *  - single-fetch navigations and form posts: the failed `.data` response
 *    carries it in `DIGEST_HEADER`, which `entry.client` notes
 *    (digest-lookup.client.ts).
 */

/** What a digest looks like: 12 lowercase hex characters. */
export const DIGEST_PATTERN = /^[0-9a-f]{12}$/;

/** Response header that carries the digest of a failed single-fetch (`.data`) request to the browser. */
export const DIGEST_HEADER = "X-Error-Digest";

/** Attribute of the error page's element that shows the digest; `entry.client` reads it before hydrating. */
export const DIGEST_ATTRIBUTE = "data-error-digest";

/** 12 lowercase hex characters (48 random bits): short enough to read aloud, safe to grep. */
export function createDigest(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** True when `value` has the shape of a digest; used to refuse anything else from headers or the DOM. */
export function isDigest(value: unknown): value is string {
  return typeof value === "string" && DIGEST_PATTERN.test(value);
}
