/**
 * Headers every response carries, whoever answers it (the document
 * renderer, single fetch, the static files, the pre-app guards, the health
 * checks), and what the start page tells search engines: the site's title
 * and description from app/site.ts, and a robots.txt.
 */
import { site } from "../app/site";
import { expect, test } from "./support/fixtures";
import { send } from "./support/refusals";

test("nosniff on every kind of response", async ({ app, request }) => {
  const page = await request.get("/");
  const script =
    /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1] ??
    /"(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
  expect(script, "a script asset on the start page").toBeTruthy();
  const targets: [string, Promise<{ status: number; headers: Record<string, string> }>][] = [
    ["document", send(app, { method: "GET", target: "/" })],
    ["single fetch", send(app, { method: "GET", target: "/fixtures/items/1.data" })],
    ["script asset", send(app, { method: "GET", target: script! })],
    ["public file", send(app, { method: "GET", target: "/favicon.svg" })],
    ["robots.txt", send(app, { method: "GET", target: "/robots.txt" })],
    ["404 document", send(app, { method: "GET", target: "/no-such-page" })],
    ["404 single fetch", send(app, { method: "GET", target: "/no-such-page.data" })],
    ["liveness", send(app, { method: "GET", target: "/healthz" })],
    ["readiness", send(app, { method: "GET", target: "/readyz" })],
    ["malformed path (pre-app guard)", send(app, { method: "GET", target: "/%E0%A4%A" })],
    ["TRACE (pre-app guard)", send(app, { method: "TRACE", target: "/" })],
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
  for (const [name, pending] of targets) {
    const response = await pending;
    expect(response.headers["x-content-type-options"], `${name} (${response.status})`).toBe("nosniff");
  }
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
