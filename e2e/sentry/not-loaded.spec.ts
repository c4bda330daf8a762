/**
 * Sentry off loads nothing of Sentry on the server (docs/decisions/0058): the
 * production build, started by the real start script with a probe preloaded
 * first (support/loaded-modules.mjs) that lists every module the process
 * resolves. Without SENTRY_DSN, after a page, a server error and a form post,
 * no module of `@sentry/*` was loaded and Sentry's global carrier never
 * existed. With a DSN, the same probe sees the server SDK (`@sentry/node` 11
 * and its `@sentry/core`) and nothing of the browser SDK's copies (10.x,
 * nested under `@sentry/remix`): the probe can see what the first test says
 * is absent.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startApp } from "../../test-support/app-server";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 2 }); // one per test, each probed

const PROBE = "./e2e/support/loaded-modules.mjs";
const SENTRY_PACKAGE = /\/node_modules\/(@sentry(?:-internal)?\/[^/]+)\//;

/** Name and version of the installed package a loaded module belongs to (its innermost `node_modules/@sentry/<name>`). */
function sentryPackageOf(url: string): { name: string; version: string; dir: string } {
  const file = fileURLToPath(url);
  const at = file.lastIndexOf("/node_modules/@sentry");
  const dir = file.slice(0, file.indexOf("/", file.indexOf("/", at + "/node_modules/".length) + 1));
  const { name, version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  return { name, version, dir };
}

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
    const { modules, sentryCarrier } = JSON.parse(readFileSync(file, "utf8")) as {
      modules: string[];
      sentryCarrier: boolean;
    };
    return {
      modules,
      sentryCarrier,
      sentryPaths: modules.filter((url) => SENTRY_PACKAGE.test(url)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("Sentry off: the server loads no module of @sentry/* and has no Sentry carrier", async () => {
  const off = await loadedBy({});
  // The probe saw the app's own packages load.
  expect(off.modules.some((url) => url.includes("/node_modules/@remix-run/server-runtime/"))).toBe(true);
  expect(off.sentryPaths).toEqual([]);
  expect(off.sentryCarrier).toBe(false);
});

test("Sentry on: the server loads @sentry/node 11 and its core, never the browser SDK's copies", async ({
  recorder,
}) => {
  const on = await loadedBy({ SENTRY_DSN: recorder.dsn(), SENTRY_TRACES_SAMPLE_RATE: "1" });
  const loaded = new Map(on.sentryPaths.map((url) => [sentryPackageOf(url).dir, sentryPackageOf(url)]));
  const root = path.resolve(import.meta.dirname, "../..");
  const top = (name: string) => loaded.get(path.join(root, "node_modules", name));
  expect(top("@sentry/node")?.version).toBe("11.12.0");
  expect(top("@sentry/core")?.version).toBe("11.12.0");
  expect(on.sentryCarrier).toBe(true);
  // No package of the browser SDK's 10.x family, wherever npm put it (under @sentry/remix or elsewhere).
  const tenX = [...loaded.values()].filter(({ version }) => version.startsWith("10."));
  expect(tenX).toEqual([]);
  // One @sentry/core: the top-level one, which the app's own code imports too.
  expect([...loaded.values()].filter(({ name }) => name === "@sentry/core").map(({ dir }) => dir)).toEqual([
    path.join(root, "node_modules/@sentry/core"),
  ]);
});
