/** One failure's name on the page, the log line and the event: from what a visitor saw to its cause. */

export const DIGEST_PATTERN = /^[0-9a-f]{12}$/;

export const DIGEST_HEADER = "X-Error-Digest";

export const DIGEST_ATTRIBUTE = "data-error-digest";

/** Headers and the DOM are not trusted: anything else is ignored. */
export function isDigest(value: unknown): value is string {
  return typeof value === "string" && DIGEST_PATTERN.test(value);
}
