/**
 * Client mistakes that used to answer 500
 * with an error line and a Sentry event: now a 4xx with a short answer, ONE
 * info line (`request refused`, with the reason) and no event; so do the
 * refusals of the server's front (a method, a path, a body size). A valid form
 * post with an odd `redirectTo` is no mistake at all: it redirects, to an
 * ASCII Location.
 */
import { expect, fromNowOn, isErrorEvent, settledItems, test } from "../support/spec-helpers";
import { failureLines, linesOf, send, type RawRequest } from "../support/refusals";
import { ROOT_DATA_PATH } from "../../app/routing/data-url";

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const VALID_FORM = "name=Ada&email=ada%40example.com";

interface Shape {
  name: string;
  request: RawRequest;
  status: number;
  reason: string;
  allow?: string;
}

const shapes: Shape[] = [
  {
    name: "a cross-origin form post",
    request: {
      method: "POST",
      target: "/fixtures/form",
      headers: { ...FORM, Origin: "http://evil.example" },
      body: VALID_FORM,
    },
    status: 403,
    reason: "cross-origin action",
  },
  {
    name: "a form post through a proxy that rewrote Host and sent no X-Forwarded-Host",
    request: {
      method: "POST",
      target: "/fixtures/form",
      headers: { ...FORM, Host: "app-internal:3000", Origin: "https://app.example" },
      body: VALID_FORM,
    },
    status: 403,
    reason: "cross-origin action",
  },
  {
    name: "a cross-origin single-fetch action",
    request: {
      method: "POST",
      target: "/fixtures/action-ok.data",
      headers: { ...FORM, Origin: "http://evil.example" },
      body: "note=1",
    },
    status: 403,
    reason: "cross-origin action",
  },
  {
    name: "an action post with an Origin that is no URL",
    request: {
      method: "POST",
      target: "/fixtures/form",
      headers: { ...FORM, Origin: "not a url" },
      body: VALID_FORM,
    },
    status: 400,
    reason: "malformed Origin header",
  },
  {
    name: "JSON to an action that reads a form itself",
    request: {
      method: "POST",
      target: "/fixtures/action-ok",
      headers: { "Content-Type": "application/json" },
      body: '{"note":1}',
    },
    status: 415,
    reason: "not a form",
  },
  {
    name: "a body without Content-Type to an action that reads a form itself",
    request: { method: "POST", target: "/fixtures/action-ok", body: "note=1" },
    status: 415,
    reason: "not a form",
  },
  {
    name: "a broken multipart body to an action that reads a form itself",
    request: {
      method: "POST",
      target: "/fixtures/action-ok",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      body: "--x\r\nnot a part",
    },
    status: 400,
    reason: "malformed form body",
  },
  {
    name: "OPTIONS /",
    request: { method: "OPTIONS", target: "/" },
    status: 405,
    reason: "method not allowed",
    allow: "GET, HEAD",
  },
  {
    name: "POST /",
    request: { method: "POST", target: "/", headers: FORM, body: "a=1" },
    status: 405,
    reason: "method not allowed",
    allow: "GET, HEAD",
  },
  {
    // The root's single-fetch URL: /_root.data on Remix 2, /_.data on React Router 8.
    name: `POST ${ROOT_DATA_PATH}`,
    request: { method: "POST", target: ROOT_DATA_PATH, headers: FORM, body: "a=1" },
    status: 405,
    reason: "method not allowed",
    allow: "GET, HEAD",
  },
  // Refused in front of the app (refuseBeforeApp, app/refusals.server.ts), with the same line.
  {
    name: "TRACE /",
    request: { method: "TRACE", target: "/" },
    status: 405,
    reason: "method not allowed",
    allow: "GET, HEAD, POST, PUT, PATCH, DELETE",
  },
  {
    name: "a malformed path",
    request: { method: "GET", target: "/%E0%A4%A" },
    status: 400,
    reason: "malformed URL",
  },
  {
    name: "Host: evil.example:99999 (a port above 65535)",
    request: { method: "GET", target: "/", headers: { Host: "evil.example:99999" } },
    status: 400,
    reason: "invalid host",
  },
  {
    name: "a Host with a character no host name holds",
    request: { method: "GET", target: "/fixtures/items/1", headers: { Host: "evil<example" } },
    status: 400,
    reason: "invalid host",
  },
  {
    name: "an X-Forwarded-Host with a port above 65535, from anyone",
    request: { method: "GET", target: "/", headers: { "X-Forwarded-Host": "evil.example:70000" } },
    status: 400,
    reason: "invalid host",
  },
  {
    name: "a declared body over the limit",
    request: { method: "POST", target: "/fixtures/form", headers: { ...FORM, "Content-Length": "2000000" } },
    status: 413,
    reason: "body too large",
  },
];

for (const shape of shapes) {
  test(`${shape.name}: ${shape.status}, one info line, no event`, async ({ app, recorder }) => {
    const since = fromNowOn(recorder);
    const response = await send(app, shape.request);
    expect(response.status).toBe(shape.status);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    if (shape.allow) expect(response.headers["allow"]).toBe(shape.allow);
    // Short: a status line's worth of text, the app's small error page or the framework's own 405; never a stack.
    expect(response.body).not.toMatch(/\n\s+at \S+/);
    await expect.poll(() => linesOf(app, response.requestId).length).toBe(1);
    const [line] = linesOf(app, response.requestId);
    expect(line).toMatchObject({
      level: "info",
      msg: "request refused",
      status: shape.status,
      reason: shape.reason,
    });
    expect(await settledItems(recorder, since(isErrorEvent), 0)).toEqual([]);
    expect(failureLines(linesOf(app, response.requestId))).toEqual([]);
  });
}

for (const [redirectTo, location] of [
  ["/x%E2%82%AC", "/x%E2%82%AC"],
  ["/caf%C3%A9", "/caf%C3%A9"],
  // Not UTF-8: the query parser reads it as U+FFFD, which goes out encoded.
  ["/caf%E9", "/caf%EF%BF%BD"],
  ["/a%25zz", "/a%25zz"],
] as const) {
  test(`a valid form post with redirectTo=${redirectTo} redirects to ${location}, quietly`, async ({
    app,
    recorder,
  }) => {
    const since = fromNowOn(recorder);
    const response = await send(app, {
      method: "POST",
      target: `/fixtures/form?redirectTo=${redirectTo}`,
      headers: FORM,
      body: VALID_FORM,
    });
    expect(response.status).toBe(302);
    expect(response.headers["location"]).toBe(location);
    expect(linesOf(app, response.requestId)).toEqual([]);
    expect(await settledItems(recorder, since(isErrorEvent), 0)).toEqual([]);
  });
}
