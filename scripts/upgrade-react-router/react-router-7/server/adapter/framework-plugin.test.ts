import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/**
 * Shape test against React Router's Vite plugin: route patterns come from the
 * context it keeps on Vite's resolved config (framework-plugin.ts). If the
 * property or its `routes` go, this fails instead of every transaction being
 * named by URL.
 */
const devRequire = createRequire(createRequire(import.meta.url).resolve("@react-router/dev/package.json"));
const pluginSource = readFileSync(devRequire.resolve("./dist/vite.js"), "utf8");

describe("React Router's Vite plugin", () => {
  it("keeps its context, with the resolved config's routes, on Vite's config", () => {
    expect(pluginSource).toMatch(/__reactRouterPluginContext: ctx/);
    expect(pluginSource).toMatch(/ctx\.reactRouterConfig\.routes/);
  });
});
