import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SERVER_BUILD_ID } from "./substitute-server-build";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("framework-plugin.ts"));

/**
 * Shape tests against React Router's Vite plugin, for what the build relies on
 * inside it: if it stops loading the server build through SERVER_BUILD_ID
 * (the SSR input unless the Vite config names another, and what the dev
 * server loads for each request), every loader and action would silently go
 * unwrapped (substitute-server-build.ts). These fail first.
 */
const devRequire = createRequire(createRequire(import.meta.url).resolve("@react-router/dev/package.json"));
const pluginSource = readFileSync(devRequire.resolve("./dist/vite.js"), "utf8");

describe("React Router's Vite plugin", () => {
  it("names its server build SERVER_BUILD_ID", () => {
    expect(pluginSource).toMatch(/let id = `virtual:react-router\/\$\{name\}`;/);
    expect(pluginSource).toMatch(/serverBuild: create\("server-build"\)/);
    expect(SERVER_BUILD_ID).toBe("virtual:react-router/server-build");
  });

  it("builds the server from it and loads it in the dev server", () => {
    // React Router 8 always builds through Vite's environment API: the SSR
    // environment's input, and its module runner in the dev server.
    expect(pluginSource).toMatch(
      /getUserBuildRollupOptions\(viteUserConfig\.environments\?\.ssr\)\?\.input \?\? virtual(\$\d+)?\.serverBuild\.id,/,
    );
    expect(pluginSource).toMatch(
      /await ssrEnvironment\.runner\.import\(\s*virtual(\$\d+)?\.serverBuild\.id\s*\)/,
    );
  });
});

describe("the build directory", () => {
  it("a build whose React Router config and Vite config name different directories stops, naming both", async () => {
    // The test builds' react-router.config.ts (build-e2e/) with the app's Vite config (build/),
    // its plugins on: vite.config.ts leaves them out under Vitest.
    const { VITEST: _vitest, ...env } = process.env;
    const build = promisify(execFile)(
      process.execPath,
      [devRequire.resolve("./bin.cjs"), "build", "e2e/fixtures", "--config", "vite.config.ts"],
      { cwd: path.resolve(import.meta.dirname, "../.."), env, timeout: 120_000 },
    );
    await expect(build).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        "the build directory: e2e/fixtures/react-router.config.ts names build-e2e, the Vite config build",
      ),
    });
  }, 150_000);
});
