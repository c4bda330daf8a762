/**
 * The browser's route pattern, read from a real router of the framework's
 * (test-support/framework-router.ts), and the shape test of where it is read:
 * Remix keeps its router on `window.__remixRouter` from the moment it creates
 * it, before hydration and before any `clientLoader` runs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { routePatternCases } from "../../test-support/framework-router-cases";
import { mountFrameworkRouter } from "../../test-support/framework-router";

afterEach(() => vi.unstubAllGlobals());

routePatternCases(mountFrameworkRouter);

describe("what it assumes of Remix's browser entry", () => {
  it("keeps the router it creates on window.__remixRouter", () => {
    const remixReact = path.dirname(createRequire(import.meta.url).resolve("@remix-run/react/package.json"));
    const browser = readFileSync(path.join(remixReact, "dist/esm/browser.js"), "utf8");
    expect(browser).toMatch(
      /router = createRouter\(\{\s*routes,[\s\S]*?basename: window\.__remixContext\.basename,/,
    );
    expect(browser).toMatch(/\bwindow\.__remixRouter = router;/);
  });
});
