import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { SERVER_BUILD_ID } from "./substitute-server-build";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("framework-plugin.ts"));

/**
 * Shape tests against Remix's Vite plugin, for what the build relies on
 * inside it: if it stops loading the server build through SERVER_BUILD_ID
 * (the SSR input, and what the dev server loads for each request), every
 * loader and action would silently go unwrapped (substitute-server-build.ts).
 * These fail first.
 */
const devRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/dev/package.json"));
const vmod = devRequire("./dist/vite/vmod.js") as { id: (name: string) => string };
const pluginSource = readFileSync(devRequire.resolve("./dist/vite/plugin.js"), "utf8");

describe("Remix's Vite plugin", () => {
  it("names its server build SERVER_BUILD_ID", () => {
    expect(vmod.id("server-build")).toBe(SERVER_BUILD_ID);
    expect(pluginSource).toMatch(/let serverBuildId = vmod\.id\("server-build"\);/);
  });

  it("builds the server from it and loads it in the dev server", () => {
    expect(pluginSource).toMatch(/input: serverBuildId,/);
    expect(pluginSource).toMatch(/await viteDevServer\.ssrLoadModule\(serverBuildId\)/);
  });
});
