import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
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
