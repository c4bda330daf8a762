/** Refused: `//x`, `/\x` (GHSA-wrjc-x8rr-h8h6), other schemes (GHSA-jjmj-jmhj-qwj2), control characters, non-ASCII. */

const MAX_TARGET_LENGTH = 2048;

export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > MAX_TARGET_LENGTH) return fallback;
  if (!target.startsWith("/") || target[1] === "/" || target[1] === "\\") return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\\\u0000-\u0020\u007f-\u009f]/.test(target)) return fallback;
  const encoded = asciiOnly(target);
  if (encoded === undefined || encoded.length > MAX_TARGET_LENGTH) return fallback;
  // Encoded forms of the above, which a later decode (a router, a proxy) could revive.
  const path = encoded.split(/[?#]/, 1)[0]!;
  if (/%(?:2f|5c|[01][0-9a-f]|7f)|%c2%[89][0-9a-f]/i.test(path)) return fallback;
  if (!decodes(path)) return fallback;
  const base = "http://same-origin.invalid";
  let resolved: URL;
  try {
    resolved = new URL(encoded, base);
  } catch {
    return fallback;
  }
  return resolved.origin === base ? encoded : fallback;
}

/** Undefined for a lone surrogate, which has no UTF-8 form. */
function asciiOnly(target: string): string | undefined {
  try {
    return target
      .replace(/[\u0080-\uffff]+/g, (text) => encodeURIComponent(text))
      .replace(/%(?![0-9a-fA-F]{2})/g, "%25");
  } catch {
    return undefined;
  }
}

/** A path that does not decode is one the server answers 400 (its malformed-path guard). */
function decodes(path: string): boolean {
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
