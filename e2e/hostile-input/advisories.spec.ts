/**
 * Each advisory against Remix 2 that has no 2.x fix, attacked as its advisory
 * describes, on the production build (SECURITY.md lists them). Every test
 * here failed before its guard: the figures are in SECURITY.md.
 */
import http from "node:http";
import { createServer } from "node:net";
import { DIGEST_HEADER, isDigest } from "~/errors/digest";
import { digestOnPage, expect, test, waitForHydration } from "../support/spec-helpers";
import { buildRequest, rawHttp } from "../../test-support/raw-http";

/** The manifest version every page carries (`window.__remixManifest.version`), which the endpoint checks first. */
async function manifestVersion(baseURL: string): Promise<string> {
  const html = await (await fetch(`${baseURL}/fixtures/items/1`)).text();
  const script = /\/assets\/manifest-[^"]+\.js/.exec(html)![0];
  const source = await (await fetch(`${baseURL}${script}`)).text();
  return /version:\s*"([^"]+)"|"version":\s*"([^"]+)"/.exec(source)!.slice(1).find(Boolean)!;
}

test.describe("GHSA-chx6-hx7r-mcp5: lazy route discovery (/__manifest)", () => {
  test("deep and many-valued queries get a 2xx or 4xx in any form, method or spelling of the path", async ({
    app,
  }) => {
    const version = await manifestVersion(app.url);
    const deep = "/a".repeat(3700);
    const targets = [
      `/__manifest?version=${version}&p=${deep}`,
      `/__manifest?version=${version}&p=${encodeURIComponent("/a".repeat(1800))}`,
      `/__manifest?version=${version}&%70=${deep.slice(0, 7000)}`,
      `/__manifest?version=${version}&${Array.from({ length: 700 }, (_, i) => `p=/b${i}/c`).join("&")}`,
      `/x/../__manifest?version=${version}&p=${deep}`,
      `/__manifest?version=${version}&p=${"/".repeat(7000)}`,
      `/__manifest?version=${version}&p=${deep}${deep}`,
      // React Router 7's form: one comma-separated `paths`.
      `/__manifest?version=${version}&paths=${deep}`,
      `/__manifest?version=${version}&paths=${Array.from({ length: 700 }, (_, i) => `/b${i}/c`).join(",")}`,
      `/__manifest?version=${version}&paths=${Array.from({ length: 4 }, () => deep.slice(0, 1800)).join(",")}`,
    ];
    for (const target of targets) {
      for (const method of ["GET", "POST", "PUT"]) {
        const answer = await rawHttp(
          app.port,
          buildRequest(method, target, {}, method === "GET" ? "" : "a=1"),
          30_000,
        );
        expect(answer.status, `${method} ${target.slice(0, 60)}`).toBeLessThan(500);
        expect([200, 204, 400, 405]).toContain(answer.status);
      }
    }
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });

  test("the real client still discovers a route that was not in the first page's manifest", async ({
    page,
  }) => {
    // On /fixtures/form/done the first manifest holds the routes of that URL's
    // prefixes; the link to /fixtures/items/3 is discovered through the endpoint.
    // Remix asks with one `p` per path, React Router 7 with one comma-separated `paths`.
    const asked = (params: URLSearchParams) => [
      ...params.getAll("p"),
      ...(params.get("paths")?.split(",") ?? []),
    ];
    const discovered = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === "/__manifest" &&
        asked(new URL(response.url()).searchParams).includes("/fixtures/items/3"),
    );
    await page.goto("/fixtures/form/done");
    await waitForHydration(page);
    expect((await discovered).status()).toBe(200);
    const patches = Object.values((await (await discovered).json()) as Record<string, { path?: string }>);
    expect(patches.map((route) => route.path)).toContain("fixtures/items/:id");
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByRole("link", { name: "An item" }).click();
    await expect(page.getByRole("heading", { name: "Item 3" })).toBeVisible();
    // A client-side navigation: the same document.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  });
});

test.describe("GHSA-337j-9hxr-rhxg: error classes revived from serialized errors", () => {
  test("a thrown object shaped { __type, __subType } from the query becomes a plain server error", async ({
    page,
  }) => {
    // What the browser would connect to if it revived `new WebSocket(message)`.
    const listener = createServer((socket) => socket.destroy());
    let connections = 0;
    listener.on("connection", () => connections++);
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as { port: number }).port;
    const sockets: string[] = [];
    page.on("websocket", (socket) => sockets.push(socket.url()));
    try {
      const response = await page.goto(
        `/fixtures/shaped-error?type=WebSocket&message=ws://127.0.0.1:${port}/x`,
      );
      expect(response!.status()).toBe(500);
      await digestOnPage(page);
      const html = await response!.text();
      expect(html).not.toContain("__subType");
      expect(html).not.toContain("WebSocket");
      await page.waitForTimeout(500);
      expect(sockets).toEqual([]);
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});

test.describe("GHSA-rxv8-25v2-qmq8: single-fetch serialization of request-shaped data", () => {
  test("an action echoing 20 000 nested arrays answers a complete 500 with a digest; the server keeps serving", async ({
    app,
  }) => {
    const nested = "[".repeat(20_000) + "1" + "]".repeat(20_000);
    for (const path of ["/fixtures/echo-json.data", "/fixtures/echo-json"]) {
      const response = await fetch(`${app.url}${path}`, { method: "POST", body: nested });
      expect(response.status, path).toBe(500);
      expect(await response.text()).toContain("Unexpected Server Error");
      if (path.endsWith(".data")) expect(isDigest(response.headers.get(DIGEST_HEADER))).toBe(true);
    }
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});

/**
 * Sends `size` bytes of form body, declared (Content-Length) or chunked; resolves with the status
 * and how many bytes had been handed to the socket when it came.
 */
function post(
  url: string,
  size: number,
  { chunked = false, expectContinue = false } = {},
): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
    if (!chunked) headers["Content-Length"] = String(size);
    if (expectContinue) headers["Expect"] = "100-continue";
    const request = http.request(url, { method: "POST", headers }, (response) => {
      response.resume();
      // The answer is in: stop sending (the server stopped reading).
      request.destroy();
      resolve({ status: response.statusCode!, sent });
    });
    request.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const write = (): void => {
      while (sent < size) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", write);
      }
      request.end();
    };
    if (expectContinue) request.on("continue", write);
    else write();
  });
}

test.describe("Request bodies (BODY_SIZE_LIMIT, default 1 MiB)", () => {
  test("64 MiB posts get 413 before the server reads them, declared, chunked or asking to continue; the next request is served", async ({
    app,
  }) => {
    const url = `${app.url}/fixtures/echo-json`;
    expect((await post(url, 512 * 1024, { chunked: true })).status).toBe(500); // within the limit: read (not JSON)
    const answers = [
      await post(url, 64 * 1024 * 1024),
      await post(`${url}.data`, 64 * 1024 * 1024, { chunked: true }),
      await post(url, 64 * 1024 * 1024, { chunked: true }),
      await post(url, 64 * 1024 * 1024, { expectContinue: true }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([413, 413, 413, 413]);
    // The answer came while the client was still sending: the server stopped reading at the limit,
    // and the socket's buffers took the rest of what was handed over (a few MiB on loopback).
    for (const { sent } of answers) expect(sent).toBeLessThan(16 * 1024 * 1024);
    expect((await fetch(`${app.url}/fixtures/items/1`)).status).toBe(200);
  });
});

test.describe("GHSA-wrjc-x8rr-h8h6 and GHSA-jjmj-jmhj-qwj2: redirects to a target from the request", () => {
  const valid = "name=Ada&email=ada%40example.com";
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  for (const target of [
    "/\\evil.example",
    "//evil.example",
    "/%5Cevil.example",
    "/\t/evil.example",
    "javascript:alert(1)",
    "https://evil.example",
  ]) {
    test(`redirectTo=${JSON.stringify(target)} goes to the fallback`, async ({ request }) => {
      const response = await request.post(`/fixtures/form?redirectTo=${encodeURIComponent(target)}`, {
        data: valid,
        headers: form,
        maxRedirects: 0,
      });
      expect(response.status()).toBe(302);
      expect(response.headers()["location"]).toBe("/fixtures/form/done");
    });
  }

  test("a same-origin path is followed", async ({ request }) => {
    const response = await request.post(
      `/fixtures/form?redirectTo=${encodeURIComponent("/fixtures/items/7?x=1")}`,
      {
        data: valid,
        headers: form,
        maxRedirects: 0,
      },
    );
    expect(response.headers()["location"]).toBe("/fixtures/items/7?x=1");
  });
});
