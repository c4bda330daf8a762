/**
 * A digest names one unexpected server error. It is shown on the error page,
 * written in the server's error log line and set as the `digest` tag of the
 * Sentry event, so an operator can go from what a visitor saw to the cause in
 * one step. It is random, so it carries no error text, no stack and no secret.
 */

const DIGEST_PATTERN = /^[0-9a-f]{12}$/;

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

/** Response header that carries the digest of a failed single-fetch (`.data`) request to the browser. */
export const DIGEST_HEADER = "X-Error-Digest";

/** The message Remix puts on every server error it sends to the browser in production. */
export const SANITIZED_SERVER_ERROR_MESSAGE = "Unexpected Server Error";
