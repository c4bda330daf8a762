/**
 * TRUST_PROXY: who the client is (`X-Forwarded-For`) and which scheme and host
 * it used (`X-Forwarded-Proto`/`-Host`) are taken from a request only when it
 * comes from a trusted proxy. The test's own connections come from 127.0.0.1:
 * to the server without TRUST_PROXY they are a direct client sending spoofed
 * headers; to the one with `TRUST_PROXY=loopback` they are the proxy.
 */
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import { expect, test } from "../support/spec-helpers";
import type { Recorder } from "../../test-support/sentry-recorder";

test.use({ serverStarts: 2 }); // direct and behind a proxy

const ROUTE = "/monitoring";
const HEADERS = {
  "X-Forwarded-For": "6.6.6.6, 203.0.113.9",
  "X-Forwarded-Proto": "https",
  "X-Forwarded-Host": "shop.example",
};

let direct: AppServer;
let proxied: AppServer;

test.beforeAll(async ({ recorder }) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  const env = { SENTRY_DSN: recorder.dsn(), SENTRY_TRACES_SAMPLE_RATE: "0", SENTRY_TUNNEL_ROUTE: ROUTE };
  [direct, proxied] = await Promise.all([
    startApp({ env }),
    startApp({ env: { ...env, TRUST_PROXY: "loopback" } }),
  ]);
});

test.afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

/** What the three places that need the client's address and URL saw for one request each. */
async function seenBy(app: AppServer, recorder: Recorder, marker: string) {
  const header = JSON.stringify({ dsn: recorder.dsn() });
  const item = JSON.stringify({ message: marker, level: "info" });
  const body = `${header}\n${JSON.stringify({ type: "event", length: Buffer.byteLength(item) })}\n${item}\n`;
  const tunnel = await fetch(app.url + ROUTE, { method: "POST", body, headers: HEADERS });
  expect(tunnel.status).toBe(200);
  const forwarded = await recorder.waitForItem((i) => i.payload?.message === marker);
  const envelope = recorder.envelopes.find((e) => e.items.includes(forwarded))!;
  const page = await fetch(`${app.url}/fixtures/request-url?m=${marker}`, { headers: HEADERS });
  const access = await app.waitForLog((line) => line.msg === "request" && String(line.url).includes(marker));
  return {
    tunnelForwardedFor: envelope.headers["x-forwarded-for"],
    accessLogClient: access.client,
    loaderUrl: await page.text(),
  };
}

test("without TRUST_PROXY, a client's X-Forwarded-* headers are ignored", async ({ recorder }) => {
  const seen = await seenBy(direct, recorder, "direct-spoof");
  expect(seen.tunnelForwardedFor).toBe("127.0.0.1");
  expect(seen.accessLogClient).toBe("127.0.0.1");
  expect(seen.loaderUrl).toBe(`${direct.url}/fixtures/request-url?m=direct-spoof`);
});

test("from a trusted proxy, the client it saw and the scheme and host it was asked for", async ({
  recorder,
}) => {
  const seen = await seenBy(proxied, recorder, "via-proxy");
  // The proxy appended 203.0.113.9; 6.6.6.6 is what that client claimed, and it is not trusted.
  expect(seen.tunnelForwardedFor).toBe("203.0.113.9");
  expect(seen.accessLogClient).toBe("203.0.113.9");
  // (@remix-run/express keeps the Host header's port when X-Forwarded-Host has none.)
  expect(seen.loaderUrl).toMatch(/^https:\/\/shop\.example(:\d+)?\/fixtures\/request-url\?m=via-proxy$/);
});
