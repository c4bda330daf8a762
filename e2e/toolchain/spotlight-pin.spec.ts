/**
 * Why tools/spotlight/ pins `hono` (its README): Spotlight's sidecar, installed from that folder's
 * lock the way `npm run dev -- --spotlight` installs it on first use, answers its page and
 * `/health` with 200; installed as npm resolves Spotlight's own ranges today, without the pin,
 * it answers both with 500. Each install goes into a folder of its own under the system's temp
 * directory, from the npm registry (npm's cache makes a second run quick). The day the unpinned
 * sidecar answers 200, this fails: the pin is no longer needed, and goes.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ensureInstalled, npm, startSidecar, type Sidecar } from "../../tools/spotlight/start";

const TOOL = path.resolve(import.meta.dirname, "../../tools/spotlight");
/** `npm ci` or `npm install` of 142 packages: seconds with npm's cache, a minute or two without. */
const INSTALL_LIMIT_MS = 300_000;

const folders: string[] = [];
const sidecars: Sidecar[] = [];

test.afterAll(async () => {
  await Promise.all(sidecars.map((sidecar) => sidecar.stop()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A copy of tools/spotlight/'s own files (no node_modules), `package.json` as `edit` makes it. */
function copyOfTool(edit: (manifest: Record<string, unknown>) => Record<string, unknown>, lock: boolean) {
  const folder = mkdtempSync(path.join(tmpdir(), "spotlight-"));
  folders.push(folder);
  for (const file of readdirSync(TOOL).filter((name) => name.endsWith(".ts"))) {
    copyFileSync(path.join(TOOL, file), path.join(folder, file));
  }
  if (lock) copyFileSync(path.join(TOOL, "package-lock.json"), path.join(folder, "package-lock.json"));
  const manifest = JSON.parse(readFileSync(path.join(TOOL, "package.json"), "utf8")) as Record<
    string,
    unknown
  >;
  writeFileSync(path.join(folder, "package.json"), JSON.stringify(edit(manifest), null, 2));
  return folder;
}

/**
 * What the sidecar installed in `folder` answers for its page and its health check, and whether
 * Spotlight's own SDK started: with SENTRY_DEBUG set, an SDK that starts prints its logger's lines.
 */
async function answers(folder: string) {
  const sidecar = await startSidecar({
    port: 0,
    folder,
    cwd: folder,
    env: { ...process.env, SENTRY_DEBUG: "1" },
  });
  sidecars.push(sidecar);
  const origin = `http://127.0.0.1:${sidecar.port}`;
  const page = await fetch(`${origin}/`);
  const health = await fetch(`${origin}/health`);
  const title = (await page.text()).includes("<title>Spotlight</title>");
  await health.body?.cancel();
  await sidecar.stop();
  const ownSdk = sidecar.output().includes("Sentry Logger");
  return { page: page.status, health: health.status, title, ownSdk };
}

const honoIn = (folder: string) =>
  (
    JSON.parse(readFileSync(path.join(folder, "node_modules/hono/package.json"), "utf8")) as {
      version: string;
    }
  ).version;

test("with the pin, from the lock as on first use: its page and health check answer 200, its own SDK stays off", async () => {
  test.setTimeout(INSTALL_LIMIT_MS + 60_000);
  const folder = copyOfTool((manifest) => manifest, true);
  ensureInstalled(folder);
  const manifest = JSON.parse(readFileSync(path.join(TOOL, "package.json"), "utf8")) as {
    overrides?: { hono?: string };
  };
  expect(await answers(folder), `hono ${honoIn(folder)} from the lock`).toEqual({
    page: 200,
    health: 200,
    title: true,
    ownSdk: false,
  });
  expect(honoIn(folder)).toBe(manifest.overrides?.hono);
});

test("without the pin, as npm resolves it today: 500 for both (else the pin can go)", async () => {
  test.setTimeout(INSTALL_LIMIT_MS + 60_000);
  const folder = copyOfTool(({ overrides: _pin, ...manifest }) => manifest, false);
  npm(folder, ["install"]);
  const hono = honoIn(folder);
  expect(await answers(folder), `hono ${hono} without the pin works: drop the override`).toMatchObject({
    page: 500,
    health: 500,
    title: false,
  });
});
