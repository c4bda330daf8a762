/**
 * The requests e2e/hostile-input/request-fuzz.spec.ts sends, as fast-check arbitraries: a
 * method, a path under a real route (a page, the form route, an action that
 * reads the body itself, single fetch, health checks, static files, unknown
 * paths) with tricky text after it, a query (non-ASCII, broken escapes,
 * redirect targets), and sometimes an odd `Origin`, `Host` or `X-Forwarded-Host`
 * (odd names, ports out of range), `Content-Type`,
 * `Cookie` and body. Most requests carry a plain header set, so that most
 * reach the routes rather than the first guard.
 */
import fc from "fast-check";
import type { RawRequest } from "./refusals";

/** `arbitrary` in one request of `1 + absentWeight`, else absent (most requests carry a plain header set). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, absentWeight: number) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: absentWeight }, { arbitrary, weight: 1 });

/** Characters that make paths and queries interesting, as raw text (encoded or not below). */
const tricky = fc.oneof(
  fc.constantFrom(
    "/",
    "//",
    "\\",
    "?",
    "#",
    "&",
    "=",
    ";",
    "..",
    ".",
    "%",
    "%2",
    "%zz",
    "%E2%82",
    "%00",
    "%2F",
  ),
  fc.constantFrom(
    "%C3%A9",
    "%E9",
    "%E2%82%AC",
    "%F0%9F%98%80",
    "%ED%A0%80",
    "+",
    "@",
    ":",
    "'",
    '"',
    "<",
    "{",
  ),
  fc.string({ unit: "grapheme-ascii", maxLength: 5 }).map((text) => text.replace(/[\s#]/g, "")),
  fc.string({ unit: "grapheme", maxLength: 3 }).map(encodeURIComponent),
);
const tail = fc.array(tricky, { maxLength: 6 }).map((parts) => parts.join(""));

const ROUTES = [
  "/",
  "/fixtures/form",
  "/fixtures/action-ok",
  "/fixtures/items/1",
  "/fixtures/redirect",
  "/healthz",
  "/readyz",
  "/robots.txt",
  "/favicon.svg",
  "/no-such-page",
  "/_root",
];
const path = fc
  .tuple(fc.constantFrom(...ROUTES), sometimes(tail, 2), fc.boolean())
  .map(([route, extra, data]) => {
    const base = extra === undefined ? route : `${route.replace(/\/$/, "")}/${extra}`;
    return data && !base.includes("?") ? `${base.split("#")[0]}.data` : base.split("#")[0]!;
  });

const queryValue = fc.oneof(
  tail,
  fc.constantFrom("/x%E2%82%AC", "/caf%C3%A9", "//evil.example", "/%5Cevil", "root"),
);
const query = fc
  .array(
    fc.tuple(
      fc.oneof(
        { arbitrary: fc.constantFrom("redirectTo", "q", "index", "%C3%A9", "a+b"), weight: 6 },
        // A legacy data request, a route list, a raw byte, a broken escape: each answered 400.
        { arbitrary: fc.constantFrom("_data", "_routes", "é", "%zz"), weight: 1 },
      ),
      queryValue,
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length === 0 ? "" : "?" + pairs.map(([key, value]) => `${key}=${value}`).join("&")));

/** Header values as clients send them: printable ASCII and Latin-1 bytes, never a line break. */
const headerText = fc
  .string({ unit: "binary", minLength: 1, maxLength: 24 })
  .map((text) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, "") || "x");
const origin = sometimes(
  fc.oneof(
    fc.constantFrom(
      "http://127.0.0.1",
      "http://evil.example",
      "null",
      "not a url",
      "http://[::1",
      "https://é.example",
    ),
    headerText,
  ),
  1,
);
/** A host name, plain or odd (characters no host name holds, an IPv6 literal left open). */
const hostName = fc.oneof(
  fc.constantFrom(
    "evil.example",
    "127.0.0.1",
    "app-internal",
    "[::1]",
    "[::1",
    "é.example",
    "a<b",
    "a b",
    "a/b",
    "a@b",
  ),
  headerText,
);
/** A port after the name, sometimes: in range, out of it, signed or not a number. */
const hostPort = fc.oneof(
  fc.constant(""),
  fc.integer({ min: 0, max: 70_000 }).map((port) => `:${port}`),
  fc.constantFrom(":99999", ":-1", ":http", ":", ":1:2", ":65536"),
);
const host = sometimes(
  fc.tuple(hostName, hostPort).map(([name, port]) => name + port),
  4,
);
const forwardedHost = sometimes(
  fc.tuple(hostName, hostPort).map(([name, port]) => name + port),
  8,
);
const contentType = sometimes(
  fc.oneof(
    fc.constantFrom(
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "multipart/form-data",
      "application/json",
      "text/plain;charset=utf-8",
      "application/x-www-form-urlencoded; charset=latin1",
    ),
    headerText,
  ),
  1,
);
const cookie = sometimes(
  fc.oneof(fc.constantFrom("a=%E0", "__session=garbage", "=; ;=", "a=é"), headerText),
  1,
);
const body = fc.option(
  fc.oneof(
    fc.constantFrom(
      "name=Ada&email=ada%40example.com",
      "name=Ada&name=Eve",
      "note=hi",
      '{"note":1}',
      "--x\r\nnope",
      "%zz=%E0",
    ),
    fc.string({ unit: "binary", maxLength: 64 }),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  ),
  { nil: undefined },
);
const method = fc.constantFrom(
  "GET",
  "HEAD",
  "POST",
  "POST",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
);

export const generatedRequest = fc
  .record({ method, path, query, origin, host, forwardedHost, contentType, cookie, body })
  .map(({ method, path, query, origin, host, forwardedHost, contentType, cookie, body }): RawRequest => {
    const headers: Record<string, string> = {};
    if (origin !== undefined) headers["Origin"] = origin;
    if (host !== undefined) headers["Host"] = host;
    if (forwardedHost !== undefined) headers["X-Forwarded-Host"] = forwardedHost;
    if (contentType !== undefined) headers["Content-Type"] = contentType;
    if (cookie !== undefined) headers["Cookie"] = cookie;
    return {
      method,
      target: path + query,
      headers,
      body: method === "GET" || method === "HEAD" ? undefined : body,
    };
  });
