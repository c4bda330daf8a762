/**
 * The bad-input battery: hundreds of distinct malformed or hostile requests,
 * each must get a 4xx (404 where the path is simply unknown), never a 5xx,
 * never a redirect off-site, and the server must stay healthy throughout.
 * Bounded: every request is sent once, on 127.0.0.1, with a timeout.
 */
import { buildRequest, rawHttp } from "../../test-support/raw-http";
import { FRAMEWORK } from "../../test-support/framework";
import { expect, test } from "../support/spec-helpers";

interface Case {
  name: string;
  request: string | Buffer;
  /** Statuses this case may get; default: any 4xx. */
  expect?: (status: number) => boolean;
}

const is4xx = (status: number) => status >= 400 && status < 500;

function cases(): Case[] {
  const list: Case[] = [];
  const add = (name: string, request: string | Buffer, expect?: (status: number) => boolean) =>
    list.push({ name, request, expect });

  // Malformed percent-encoding, in every method that reaches the app.
  const badEncodings = [
    "/%",
    "/%E0%A4%A",
    "/%G0",
    "/a%",
    "/%%",
    "/%%%",
    "/%FF%FE",
    "/%C0%AF",
    "/%ZZ",
    "/x/%E2%82",
    "/%u0041",
    "/%E0%A4%A.data",
    "/fixtures/items/%E0%A4%A",
    "/%ED%A0%80",
  ];
  for (const path of badEncodings) {
    for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE"]) {
      add(
        `${method} ${path}`,
        buildRequest(method, path, {}, method === "POST" || method === "PUT" ? "a=1" : ""),
      );
    }
  }

  // Overlong paths, query strings and headers.
  for (const size of [2048, 8192, 10 * 1024, 16 * 1024, 64 * 1024]) {
    add(
      `path of ${size} bytes`,
      buildRequest("GET", "/" + "a".repeat(size)),
      (status) => status === 404 || is4xx(status),
    );
    add(
      `query of ${size} bytes`,
      buildRequest("GET", "/no-such?q=" + "b".repeat(size)),
      (status) => status === 404 || is4xx(status),
    );
    add(`.data query of ${size} bytes`, buildRequest("GET", "/_root.data?_routes=" + "c".repeat(size)));
  }
  for (const size of [16 * 1024, 20 * 1024, 100 * 1024]) {
    add(
      `header of ${size} bytes`,
      buildRequest("GET", "/", { "X-Big": "h".repeat(size) }),
      (status) => status === 431 || is4xx(status),
    );
  }
  add(
    "many headers",
    buildRequest("GET", "/", Object.fromEntries(Array.from({ length: 2500 }, (_, i) => [`X-H${i}`, "v"]))),
    (status) => status === 431 || is4xx(status),
  );

  // NUL and control bytes.
  for (const byte of [0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, 0x1b, 0x7f]) {
    add(
      `raw control byte 0x${byte.toString(16)} in path`,
      Buffer.from(
        `GET /a${String.fromCharCode(byte)}b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        "latin1",
      ),
    );
    add(
      `encoded control byte %${byte.toString(16).padStart(2, "0")} in path`,
      buildRequest("GET", `/a%${byte.toString(16).padStart(2, "0")}b`),
      (status) => status === 404 || is4xx(status),
    );
  }
  add(
    "CRLF injection in path",
    buildRequest("GET", "/a%0d%0aSet-Cookie:%20owned=1"),
    (status) => status === 404 || is4xx(status),
  );
  add("raw CR in path", Buffer.from("GET /a\rb HTTP/1.1\r\nHost: x\r\n\r\n", "latin1"));
  add(
    "NUL in header value",
    Buffer.from("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\nConnection: close\r\n\r\n", "latin1"),
  );
  add(
    "header without colon",
    Buffer.from("GET / HTTP/1.1\r\nHost: x\r\nBroken header\r\nConnection: close\r\n\r\n", "latin1"),
  );
  add(
    "space before colon",
    Buffer.from("GET / HTTP/1.1\r\nHost: x\r\nX-A : b\r\nConnection: close\r\n\r\n", "latin1"),
  );
  add(
    "obsolete line folding",
    Buffer.from("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  folded\r\nConnection: close\r\n\r\n", "latin1"),
  );
  // Node reads these as requests for "/" and "*": harmless, so any non-5xx answer will do.
  add("HTTP/0.9 style", Buffer.from("GET /\r\n\r\n", "latin1"), (status) => status < 500);
  add("HTTP/2 preface on HTTP/1", Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"));
  add("bad HTTP version", Buffer.from("GET / HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n", "latin1"));
  add("garbage request line", Buffer.from("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "latin1"));
  add(
    "absolute-form target to another host",
    buildRequest("GET", "http://evil.example/"),
    (status) => status === 404 || is4xx(status),
  );
  add("asterisk-form target", buildRequest("GET", "*"), (status) => status < 500);

  // Unknown and odd methods.
  for (const method of [
    "BREW",
    "PROPFIND",
    "MKCOL",
    "TRACE",
    "CONNECT",
    "LINK",
    "PURGE",
    "SEARCH",
    "get",
    "G3T",
    "X".repeat(40),
  ]) {
    add(`method ${method} on /`, buildRequest(method, method === "CONNECT" ? "127.0.0.1:80" : "/"));
    add(
      `method ${method} on an unknown path`,
      buildRequest(method, method === "CONNECT" ? "evil.example:443" : "/no-such-page"),
      (status) => status === 404 || is4xx(status),
    );
  }

  // Bodies with a wrong or lying Content-Type, to pages and to routes without an action.
  const bodies: [string, string][] = [
    ["application/json", '{"a":'],
    ["text/plain", "plain"],
    ["image/png", "\x89PNG\r\n"],
    ["application/x-www-form-urlencoded", "a=%E0%A4%A&b"],
    ["application/x-www-form-urlencoded; charset=utf-16", "a=1"],
    ["multipart/form-data", "no boundary"],
    ["multipart/form-data; boundary=XYZ", '--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\ntrunc'],
    ["multipart/form-data; boundary=XYZ", "--XYZ--"],
    ["", "a=1"],
  ];
  for (const target of [
    "/",
    "/fixtures/items/1",
    "/no-such-page",
    "/_root.data",
    "/fixtures/items/1.data",
    "/healthz",
  ]) {
    for (const [type, body] of bodies) {
      add(
        `POST ${target} as ${type || "no type"}`,
        buildRequest("POST", target, type ? { "Content-Type": type } : {}, body),
        (status) => status === 404 || status === 405 || is4xx(status),
      );
    }
  }
  add(
    "Content-Length larger than the body",
    buildRequest("POST", "/", { "Content-Length": "100", "Content-Type": "text/plain" }, "short"),
    (status) => is4xx(status),
  );
  add("negative Content-Length", buildRequest("POST", "/", { "Content-Length": "-1" }, "x"));
  add(
    "two Content-Lengths",
    buildRequest("POST", "/", { "Content-Length": "1", "content-length": "2" }, "xx"),
  );
  add(
    "Content-Length with Transfer-Encoding",
    buildRequest("POST", "/", { "Content-Length": "3", "Transfer-Encoding": "chunked" }, "0\r\n\r\n"),
  );
  add(
    "bad chunked encoding",
    buildRequest("POST", "/", { "Transfer-Encoding": "chunked" }, "zz\r\nabc\r\n0\r\n\r\n"),
  );
  add("unknown Transfer-Encoding", buildRequest("POST", "/", { "Transfer-Encoding": "gzip, chunked2" }, ""));

  // The validated form action (app/forms/form-action.server.ts): wrong types, truncated multipart, oversize.
  const form = "/fixtures/form";
  const formCases: [string, Record<string, string>, string, number[]][] = [
    ["JSON body", { "Content-Type": "application/json" }, '{"name":"a"}', [415]],
    ["text body", { "Content-Type": "text/plain" }, "name=a", [415]],
    ["no content type", {}, "name=a", [415, 400]],
    ["multipart without boundary", { "Content-Type": "multipart/form-data" }, "x", [400, 415]],
    [
      "truncated multipart",
      { "Content-Type": "multipart/form-data; boundary=B" },
      '--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda',
      [400],
    ],
    ["multipart with no parts", { "Content-Type": "multipart/form-data; boundary=B" }, "--B--\r\n", [400]],
    [
      "bad percent-encoding",
      { "Content-Type": "application/x-www-form-urlencoded" },
      "name=%E0%A4%A&email=a%",
      [400],
    ],
    [
      "duplicate field",
      { "Content-Type": "application/x-www-form-urlencoded" },
      "name=a&name=b&email=a@b.co",
      [400],
    ],
    [
      "field over the length limit",
      { "Content-Type": "application/x-www-form-urlencoded" },
      "name=" + "n".repeat(500) + "&email=a@b.co",
      [400],
    ],
    [
      "200 KiB form body",
      { "Content-Type": "application/x-www-form-urlencoded" },
      "name=" + "n".repeat(200 * 1024),
      [413],
    ],
    [
      "Content-Length claiming 10 MiB",
      { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(10 * 1024 * 1024) },
      "name=a",
      [413],
    ],
  ];
  for (const [name, headers, body, statuses] of formCases) {
    for (const target of [form, `${form}.data`]) {
      add(`POST ${target}: ${name}`, buildRequest("POST", target, headers, body), (status) =>
        statuses.includes(status),
      );
    }
  }

  // Bogus single-fetch parameters.
  const routes = [
    "",
    "nope",
    "root,nope",
    "%00",
    ",,,",
    "../../etc/passwd",
    "routes%2F%24",
    "<script>",
    "root".repeat(500),
  ];
  for (const value of routes) {
    add(
      `_routes=${value.slice(0, 20)} on /_root.data`,
      buildRequest("GET", `/_root.data?_routes=${encodeURIComponent(value)}`),
    );
    add(
      `_routes=${value.slice(0, 20)} on an unknown .data`,
      buildRequest("GET", `/no-such.data?_routes=${encodeURIComponent(value)}`),
      (status) => status === 404 || is4xx(status),
    );
  }
  for (const query of ["index", "index=", "index=1&index=2", "_data=root", "_data=", "_data=routes%2F%24"]) {
    // `_data` is Remix 2's legacy data protocol (answered 400); React Router 7 has none, so a page.
    const legacyData = query.startsWith("_data") && FRAMEWORK === "remix-2";
    add(`?${query} on /`, buildRequest("GET", `/?${query}`), legacyData ? is4xx : (status) => status < 500);
    add(
      `POST ?${query} on /`,
      buildRequest("POST", `/?${query}`, { "Content-Type": "application/x-www-form-urlencoded" }, "a=1"),
      (status) => is4xx(status),
    );
  }
  for (const path of [
    "/.data",
    "/..data",
    "/_root.data/x",
    "/a.data.data",
    "/.data?_routes=root",
    "/__manifest",
    "/__manifest?p=%E0%A4%A",
    "/__manifest?version=x&p=" + "/a".repeat(3000),
  ]) {
    add(`GET ${path.slice(0, 40)}`, buildRequest("GET", path), (status) => status < 500);
  }

  // Open-redirect shapes: never a redirect to another host (the static file
  // server may redirect a directory-like path to a same-origin one; checked below).
  for (const path of [
    "//evil.example",
    "//evil.example/",
    "/\\evil.example",
    "/\\/evil.example",
    "///evil.example/%2e%2e",
    "/%2F%2Fevil.example",
    "/%5Cevil.example",
    "//evil.example/fixtures/redirect",
    "/fixtures/redirect/..//evil.example",
  ]) {
    add(`off-site shape ${path}`, buildRequest("GET", path), (status) => is4xx(status) || status === 301);
  }

  // Script in the path of the 404 page.
  for (const payload of [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    "'-alert(1)-'",
    "</title><script>alert(1)</script>",
  ]) {
    add(
      `script in 404 path: ${payload}`,
      buildRequest("GET", "/" + encodeURIComponent(payload)),
      (status) => status === 404,
    );
  }
  return list;
}

test("at least 200 distinct hostile requests: 4xx, no 5xx, no crash", async ({ app, request }) => {
  test.setTimeout(120_000);
  const logLinesBefore = app.logLines().length;
  const all = cases();
  const distinct = new Set(
    all.map((c) => (typeof c.request === "string" ? c.request : c.request.toString("latin1"))),
  );
  expect(distinct.size).toBeGreaterThanOrEqual(200);

  const statuses = new Map<number, number>();
  const failures: string[] = [];
  for (const testCase of all) {
    const response = await rawHttp(app.port, testCase.request).catch((error: Error) => ({
      status: 0,
      headers: {} as Record<string, string>,
      body: error.message,
    }));
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const ok = (testCase.expect ?? is4xx)(response.status);
    const location = response.headers.location;
    const offSite = location !== undefined && !/^\/(?![/\\])/.test(location);
    const reflected = /<script>alert|onerror=alert/i.test(response.body);
    if (!ok || offSite || reflected) {
      failures.push(
        `${testCase.name}: ${response.status} ${location ?? ""} ${reflected ? "(reflected script)" : ""}`,
      );
    }
  }
  console.log(
    `hostile battery: ${all.length} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  );
  expect(failures).toEqual([]);
  expect(app.process.exitCode).toBeNull();
  expect((await request.get("/healthz")).status()).toBe(200);
  expect((await request.get("/")).status()).toBe(200);
  // Nothing in the battery is an unexpected server error.
  expect(
    app
      .logLines()
      .slice(logLinesBefore)
      .filter((line) => line.level === "error"),
  ).toEqual([]);
});
