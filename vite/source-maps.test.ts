/**
 * The release build's upload (plugins.ts `sourceMaps`) on a small real build: when Sentry's upload
 * API cannot be reached, the build fails, rather than ship a release whose stacks stay minified.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { startUploadStandIn } from "../test-support/sentry-upload-stand-in";
import { sourceMaps } from "./plugins";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "source-maps-"));
  writeFileSync(path.join(dir, "main.js"), `document.title = String(Date.now());\n`);
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

async function buildUploadingTo(url: string): Promise<void> {
  vi.stubEnv("SENTRY_AUTH_TOKEN", "t");
  vi.stubEnv("SENTRY_ORG", "o");
  vi.stubEnv("SENTRY_PROJECT", "p");
  vi.stubEnv("SENTRY_RELEASE", "source-maps-test");
  vi.stubEnv("SENTRY_URL", url);
  vi.stubEnv("SENTRY_CONFIG_DIR", path.join(dir, "cli"));
  vi.stubEnv("SENTRY_CLI_NO_TELEMETRY", undefined);
  const out = path.join(dir, "out");
  await build({
    configFile: false,
    root: dir,
    logLevel: "silent",
    build: { outDir: out, rollupOptions: { input: path.join(dir, "main.js") } },
    plugins: [sourceMaps(out)],
  });
}

test("an upload that goes through leaves the build passing, and the CLI told to send no reports of its own", async () => {
  const standIn = await startUploadStandIn();
  try {
    await buildUploadingTo(standIn.url);
    expect(standIn.record.bundles.length).toBe(1);
    expect(process.env.SENTRY_CLI_NO_TELEMETRY).toBe("1");
  } finally {
    await standIn.close();
  }
}, 60_000);

test("an upload that fails fails the build", async () => {
  const standIn = await startUploadStandIn();
  await standIn.close();
  await expect(buildUploadingTo(standIn.url)).rejects.toThrow();
}, 60_000);
