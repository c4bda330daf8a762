/**
 * The one way to redirect to a target that came from the request (a
 * `redirectTo` field or query parameter): only a path on this site passes,
 * anything else becomes `fallback`. Browsers read `/\evil.example` and
 * `//evil.example` as another host (GHSA-wrjc-x8rr-h8h6), `javascript:` and other schemes run or leave the site
 * (GHSA-jjmj-jmhj-qwj2), and tabs, newlines and other control characters are
 * dropped by URL parsers, which turns `/\t/evil.example` into `//evil.example`.
 *
 * What passes goes into a `Location` header, which carries bytes, not text:
 * a character beyond ASCII would make the response fail (`/x€`) or go out
 * as a raw byte (`/café` as `/caf\xE9`). So the result is always printable
 * ASCII: other characters are percent-encoded as UTF-8, a `%` that starts no
 * escape becomes `%25`, and a path whose escapes decode to no text at all
 * (`/%E2%82`) falls back, as this server would answer it 400.
 */

/** Longest target returned: a redirect needs no more, and a longer one is someone's experiment. */
const MAX_TARGET_LENGTH = 2048;

/** `target` when it is a same-origin path (`/account?tab=2#x`), percent-encoded to ASCII, else `fallback`. */
export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > MAX_TARGET_LENGTH) return fallback;
  // One leading slash, then not a second slash or backslash (protocol-relative forms).
  if (!target.startsWith("/") || target[1] === "/" || target[1] === "\\") return fallback;
  // No backslash anywhere, and no control character or space (C0, DEL, C1).
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\\\u0000-\u0020\u007f-\u009f]/.test(target)) return fallback;
  const encoded = asciiOnly(target);
  if (encoded === undefined || encoded.length > MAX_TARGET_LENGTH) return fallback;
  // Encoded forms of what is refused above in the path, which a later decode (a router, a proxy)
  // could revive; the query and fragment may carry them (`?next=%2Fa`).
  const path = encoded.split(/[?#]/, 1)[0]!;
  if (/%(?:2f|5c|[01][0-9a-f]|7f)|%c2%[89][0-9a-f]/i.test(path)) return fallback;
  if (!decodes(path)) return fallback;
  // What a browser resolves it to must still be this origin.
  const base = "http://same-origin.invalid";
  let resolved: URL;
  try {
    resolved = new URL(encoded, base);
  } catch {
    return fallback;
  }
  return resolved.origin === base ? encoded : fallback;
}

/**
 * `target` with every character beyond ASCII percent-encoded as UTF-8 and
 * every `%` that starts no escape as `%25`; undefined when it holds a lone
 * surrogate, which is no character and has no UTF-8 form.
 */
function asciiOnly(target: string): string | undefined {
  try {
    return target
      .replace(/[\u0080-\uffff]+/g, (text) => encodeURIComponent(text))
      .replace(/%(?![0-9a-fA-F]{2})/g, "%25");
  } catch {
    return undefined;
  }
}

/** Whether the path's escapes decode to text (what the server's malformed-path guard asks). */
function decodes(path: string): boolean {
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
