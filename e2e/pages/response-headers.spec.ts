/**
 * Headers every response carries, whoever answers it (the document
 * renderer, single fetch, the static files, the pre-app guards, the health
 * checks), and what the start page tells search engines: the site's title
 * and description from app/site.ts, and a robots.txt.
 */
import { site } from "../../app/site";
import { expect, test } from "../support/spec-helpers";
import { send } from "../support/refusals";

/** What every response carries, set in one place (server/pre-app/response-headers.ts); the CSP differs only by its nonce. */
const SECURITY_HEADERS = [
  "content-security-policy",
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  "permissions-policy",
  "strict-transport-security",
];
const NONCE = /'nonce-([^']+)'/;

test("the same security headers on every kind of response", async ({ app, request }) => {
  const page = await request.get("/");
  const script =
    /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1] ??
    /"(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
  expect(script, "a script asset on the start page").toBeTruthy();
  const targets: [string, Promise<{ status: number; headers: Record<string, string> }>][] = [
    ["document", send(app, { method: "GET", target: "/" })],
    ["single fetch", send(app, { method: "GET", target: "/fixtures/items/1.data" })],
    ["failed single fetch", send(app, { method: "GET", target: "/fixtures/loader-error.data" })],
    ["error page", send(app, { method: "GET", target: "/fixtures/loader-error" })],
    ["script asset", send(app, { method: "GET", target: script! })],
    ["public file", send(app, { method: "GET", target: "/favicon.svg" })],
    ["robots.txt", send(app, { method: "GET", target: "/robots.txt" })],
    ["404 document", send(app, { method: "GET", target: "/no-such-page" })],
    ["404 single fetch", send(app, { method: "GET", target: "/no-such-page.data" })],
    ["liveness", send(app, { method: "GET", target: "/healthz" })],
    ["readiness", send(app, { method: "GET", target: "/readyz" })],
    ["malformed path (pre-app guard)", send(app, { method: "GET", target: "/%E0%A4%A" })],
    ["TRACE (pre-app guard)", send(app, { method: "TRACE", target: "/" })],
    ["CONNECT (answered on the socket)", send(app, { method: "CONNECT", target: "127.0.0.1:80" })],
    [
      "refused action",
      send(app, {
        method: "POST",
        target: "/fixtures/form",
        headers: { Origin: "http://evil.example" },
        body: "",
      }),
    ],
    ["HEAD", send(app, { method: "HEAD", target: "/" })],
  ];
  const responses = await Promise.all(targets.map(async ([name, pending]) => [name, await pending] as const));
  const [, document] = responses[0]!;
  const policy = document.headers["content-security-policy"]!;
  expect(policy).toMatch(NONCE);
  expect(document.headers["x-content-type-options"]).toBe("nosniff");
  const nonces = new Set<string>();
  for (const [name, response] of responses) {
    const label = `${name} (${response.status})`;
    const csp = response.headers["content-security-policy"] ?? "";
    expect(csp.replace(NONCE, ""), label).toBe(policy.replace(NONCE, ""));
    nonces.add(NONCE.exec(csp)?.[1] ?? "");
    for (const header of SECURITY_HEADERS.slice(1))
      expect(response.headers[header], `${header} on ${label}`).toBe(document.headers[header]);
  }
  // A fresh nonce for each response.
  expect(nonces.size).toBe(responses.length);
});

test("a refused action's answer keeps the Content-Security-Policy", async ({ app }) => {
  // The adapter's answer replaces the framework's 500 and its body's `content-*` headers.
  const response = await send(app, {
    method: "POST",
    target: "/fixtures/form",
    headers: { Origin: "http://evil.example" },
    body: "",
  });
  expect(response.status).toBe(403);
  expect(response.headers["content-security-policy"]).toMatch(NONCE);
});

test("every 405 names what is allowed", async ({ app }) => {
  for (const [method, target] of [
    ["OPTIONS", "/"],
    ["POST", "/"],
    ["DELETE", "/fixtures/items/1"],
    ["POST", "/fixtures/items/1.data"],
    ["POST", "/healthz"],
    ["TRACE", "/fixtures/form"],
  ] as const) {
    const response = await send(app, { method, target, body: method === "POST" ? "a=1" : undefined });
    expect(response.status, `${method} ${target}`).toBe(405);
    expect(response.headers["allow"], `${method} ${target}`).toMatch(/^GET, HEAD\b/);
  }
});

test("the start page and the 404 page carry the site's title and description", async ({ page }) => {
  for (const path of ["/", "/no-such-page"]) {
    await page.goto(path);
    await expect(page).toHaveTitle(site.title);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", site.description);
  }
});

test("robots.txt is served as text, and says which paths crawlers may fetch", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
  expect(await response.text()).toMatch(/^User-agent: \*$/m);
});
