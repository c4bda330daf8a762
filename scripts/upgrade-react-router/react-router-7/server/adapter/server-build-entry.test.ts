import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { Plugin } from "vite";
import { APP_BUILD_ENTRY, SERVER_BUILD_ID, serverBuildEntry } from "./server-build-entry";

/**
 * Shape tests against React Router's Vite plugin: if it stops loading the
 * server build through SERVER_BUILD_ID, both in the production build (the SSR
 * input, unless the Vite config names another) and in the dev server (each
 * request), these fail instead of every loader and action silently going
 * unwrapped.
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
    expect(pluginSource).toMatch(/rollupOptions\?\.input\) \?\? virtual\.serverBuild\.id,/);
    expect(pluginSource).toMatch(/await viteDevServer\.ssrLoadModule\(\s*virtual\.serverBuild\.id\s*\)/);
  });
});

describe("serverBuildEntry", () => {
  const resolveId = serverBuildEntry().resolveId as (source: string, importer?: string) => string | null;

  it("gives everyone but app-build.ts the app's build instead", () => {
    expect(resolveId(SERVER_BUILD_ID)).toBe(APP_BUILD_ENTRY);
    expect(resolveId(SERVER_BUILD_ID, "/somewhere/else.ts")).toBe(APP_BUILD_ENTRY);
    expect(resolveId(SERVER_BUILD_ID, APP_BUILD_ENTRY)).toBeNull();
    expect(resolveId("virtual:react-router/server-manifest")).toBeNull();
  });

  it("runs before the framework's own resolver, and APP_BUILD_ENTRY exists", () => {
    expect((serverBuildEntry() as Plugin).enforce).toBe("pre");
    expect(readFileSync(APP_BUILD_ENTRY, "utf8")).toContain(`from "${SERVER_BUILD_ID}"`);
  });
});
