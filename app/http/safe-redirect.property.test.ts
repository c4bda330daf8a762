import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

/**
 * Properties of `safeRedirectPath` over generated input: whatever a client
 * puts in `redirectTo`, the answer is a path of this site that a `Location`
 * header can carry, and a valid ASCII path comes back as it went in.
 * `FUZZ_SEED=<n>` replays a failure fast-check reported.
 */
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const runs = { numRuns: 2_000, ...(seed === undefined ? {} : { seed }) };

const FALLBACK = "/fallback";
/** One slash, then printable ASCII, not a second slash or backslash. */
const LOCATION_PATH = /^\/(?![/\\])[\x21-\x7e]*$/;

function assertCarriable(result: string): void {
  expect(result).toMatch(LOCATION_PATH);
  expect(() => new Headers({ location: result })).not.toThrow();
  for (const base of ["http://app.example", "https://app.example:8443/a/b/c?x=1#y"]) {
    expect(new URL(result, base).origin).toBe(new URL(base).origin);
  }
}

/** Pieces that make paths interesting: separators, escapes (broken and whole), dots, non-ASCII, controls. */
const pathPiece = fc.oneof(
  fc.constantFrom(
    "/",
    "//",
    "\\",
    "?",
    "#",
    "&",
    "=",
    ";",
    ":",
    "@",
    ".",
    "..",
    "%",
    "%2",
    "%zz",
    "%2F",
    "%5c",
  ),
  fc.constantFrom(
    "%E2%82",
    "%E2%82%AC",
    "%C3%A9",
    "%00",
    "%0a",
    "%C2%85",
    "€",
    "é",
    "\u0085",
    "\t",
    "\n",
    " ",
  ),
  fc.constantFrom("\ud800", "\udfff", "😀", "\u2028", "\ufeff", "／", "javascript:", "http:", "evil.example"),
  fc.string({ unit: "grapheme-ascii", maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 4 }),
);
const pathLike = fc.array(pathPiece, { maxLength: 12 }).map((pieces) => pieces.join(""));

/** Printable ASCII a path keeps as it is, and valid escapes of text (never of `/`, `\` or controls). */
const SAFE_CHARS = "abcxyzABC019-._~!$&'()*+,;=:@".split("");
const segment = fc
  .array(
    fc.oneof(
      fc.constantFrom(...SAFE_CHARS),
      fc
        .string({ unit: "grapheme", minLength: 1, maxLength: 2 })
        .filter((text) => /^[^\p{ASCII}\p{Cc}]+$/u.test(text))
        .map((text) => encodeURIComponent(text)),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((chars) => chars.join(""));
const queryChars = fc
  .array(fc.oneof(fc.constantFrom(...SAFE_CHARS, "/", "?", "%2F", "%0A", "%25")), { maxLength: 10 })
  .map((chars) => chars.join(""));
const validPath = fc
  .tuple(fc.array(segment, { maxLength: 5 }), fc.option(queryChars), fc.option(queryChars), fc.boolean())
  .map(([segments, query, fragment, trailing]) => {
    let path = "/" + segments.join("/") + (trailing && segments.length > 0 ? "/" : "");
    if (query !== null) path += "?" + query;
    if (fragment !== null) path += "#" + fragment;
    return path;
  });

describe("safeRedirectPath (properties)", () => {
  it("answers any string with a same-site ASCII path, or the fallback", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary", maxLength: 80 }), pathLike), (target) => {
        const result = safeRedirectPath(target, FALLBACK);
        assertCarriable(result);
      }),
      runs,
    );
  });

  it("answers strings that start as a path with a same-site ASCII path, or the fallback", () => {
    fc.assert(
      fc.property(pathLike, (rest) => {
        assertCarriable(safeRedirectPath("/" + rest, FALLBACK));
      }),
      runs,
    );
  });

  it("keeps valid ASCII paths as they are", () => {
    fc.assert(
      fc.property(validPath, (target) => {
        expect(safeRedirectPath(target, FALLBACK)).toBe(target);
      }),
      runs,
    );
  });

  it("encodes text beyond ASCII rather than dropping the path", () => {
    fc.assert(
      fc.property(segment, fc.string({ unit: "grapheme", minLength: 1, maxLength: 4 }), (ascii, text) => {
        fc.pre(/^[^\p{ASCII}\p{Cc}]+$/u.test(text));
        const result = safeRedirectPath(`/${ascii}/${text}`, FALLBACK);
        expect(result).toBe(`/${ascii}/${encodeURIComponent(text)}`);
      }),
      runs,
    );
  });
});
