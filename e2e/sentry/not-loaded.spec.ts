/**
 * Sentry off loads nothing of Sentry on the server (docs/decisions/0058): the
 * production build, started by the real start script with a probe preloaded
 * first (support/loaded-modules.mjs) that lists every module the process
 * resolves. Without SENTRY_DSN, after a page, a server error and a form post,
 * neither a module of `@sentry/*` nor the build's chunk of the server SDK
 * (vite/plugins.ts) was loaded, and Sentry's global carrier never existed.
 * With a DSN, the same probe sees that chunk load and one SDK in the carrier,
 * 11.12.0 (none of the browser SDK's 10.x), and no `@sentry/*` package loaded
 * from node_modules beside it: the probe can see what the first test says is absent.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startApp } from "../../test-support/app-server";
import { SERVER_SDK_CHUNK } from "../../app/monitoring/server-sdk.server";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 2 }); // one per test, each probed

const PROBE = "./e2e/support/loaded-modules.mjs";
const SENTRY_PACKAGE = /\/node_modules\/(@sentry(?:-internal)?\/[^/]+)\//;

/** Starts the server with the probe, makes requests through every server path that reports to Sentry, stops it. */
async function loadedBy(env: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "loaded-modules-"));
  const file = path.join(dir, "modules.json");
  try {
    const app = await startApp({ env: { ...env, LOADED_MODULES_FILE: file }, preload: [PROBE] });
    try {
      expect((await fetch(`${app.url}/fixtures/items/1`)).status).toBe(200);
      expect((await fetch(`${app.url}/fixtures/loader-error`)).status).toBe(500);
      const form = await fetch(`${app.url}/fixtures/action-error`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "note=x",
      });
      expect(form.status).toBe(500);
      expect((await fetch(`${app.url}/nope`)).status).toBe(404);
    } finally {
      expect(await app.stop()).toEqual({ code: 0, signal: null });
    }
    const { modules, sentryCarrier, sentryVersions } = JSON.parse(readFileSync(file, "utf8")) as {
      modules: string[];
      sentryCarrier: boolean;
      sentryVersions: string[];
    };
    return {
      modules,
      sentryCarrier,
      sentryVersions,
      sdkChunk: modules.filter((url) => SERVER_SDK_CHUNK.test(url)),
      sentryPaths: modules.filter((url) => SENTRY_PACKAGE.test(url)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("Sentry off: the server loads no module of @sentry/* nor the SDK's chunk, and has no Sentry carrier", async () => {
  const off = await loadedBy({});
  // The probe saw the app's own packages load.
  expect(off.modules.some((url) => url.includes("/node_modules/@remix-run/server-runtime/"))).toBe(true);
  expect(off.sentryPaths).toEqual([]);
  expect(off.sdkChunk).toEqual([]);
  expect(off.sentryCarrier).toBe(false);
});

test("Sentry on: the server loads the build's chunk of @sentry/node 11, never the browser SDK's copies", async ({
  recorder,
}) => {
  const on = await loadedBy({ SENTRY_DSN: recorder.dsn(), SENTRY_TRACES_SAMPLE_RATE: "1" });
  expect(on.sdkChunk).toHaveLength(1);
  // One SDK, 11.12.0, in the carrier: no copy from node_modules beside the chunk, no 10.x of the browser's.
  expect(on.sentryVersions).toEqual(["11.12.0"]);
  expect(on.sentryPaths).toEqual([]);
});
