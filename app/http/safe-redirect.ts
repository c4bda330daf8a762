/**
 * The one way to redirect to a target that came from the request (a
 * `redirectTo` field or query parameter): only a path on this site passes,
 * anything else becomes `fallback`. Browsers read `/\evil.example` and
 * `//evil.example` as another host (GHSA-wrjc-x8rr-h8h6, fixed only in React
 * Router 7.18), `javascript:` and other schemes run or leave the site
 * (GHSA-jjmj-jmhj-qwj2), and tabs, newlines and other control characters are
 * dropped by URL parsers, which turns `/\t/evil.example` into `//evil.example`.
 */

/** Longest target accepted: a redirect needs no more, and a longer one is someone's experiment. */
const MAX_TARGET_LENGTH = 2048;

/** `target` when it is a same-origin path (`/account?tab=2#x`), else `fallback`. */
export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > MAX_TARGET_LENGTH) return fallback;
  // One leading slash, then not a second slash or backslash (protocol-relative forms).
  if (!target.startsWith("/") || target[1] === "/" || target[1] === "\\") return fallback;
  // No backslash anywhere, and no control character or space (C0, DEL, C1).
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\\\u0000-\u0020\u007f-\u009f]/.test(target)) return fallback;
  // Encoded forms of what is refused above in the path, which a later decode (a router, a proxy)
  // could revive; the query and fragment may carry them (`?next=%2Fa`).
  const path = target.split(/[?#]/, 1)[0]!;
  if (/%(?:2f|5c|[01][0-9a-f]|7f)|%c2%[89][0-9a-f]/i.test(path)) return fallback;
  // What a browser resolves it to must still be this origin, at the same path.
  const base = "http://same-origin.invalid";
  let resolved: URL;
  try {
    resolved = new URL(target, base);
  } catch {
    return fallback;
  }
  return resolved.origin === base ? target : fallback;
}
