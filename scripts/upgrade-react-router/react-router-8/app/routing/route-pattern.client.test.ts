/**
 * The browser's route pattern, read from a real router of the framework's
 * (test-support/framework-router.ts), and the shape test of where it is read:
 * React Router keeps the router `HydratedRouter` creates on
 * `window.__reactRouterDataRouter` from the moment it creates it, before
 * hydration and before any `clientLoader` runs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { routePatternCases } from "../../test-support/framework-router-cases";
import { mountFrameworkRouter } from "../../test-support/framework-router";

afterEach(() => vi.unstubAllGlobals());

routePatternCases(mountFrameworkRouter);

describe("what it assumes of React Router's HydratedRouter", () => {
  it("keeps the router it creates on window.__reactRouterDataRouter", () => {
    const reactRouter = path.dirname(createRequire(import.meta.url).resolve("react-router/package.json"));
    for (const build of ["development", "production"]) {
      const source = readFileSync(
        path.join(reactRouter, "dist", build, "lib/dom-export/hydrated-router.js"),
        "utf8",
      );
      expect(source).toMatch(/basename: ssrInfo\.context\.basename,/);
      expect(source).toMatch(/\bwindow\.__reactRouterDataRouter = router;/);
    }
  });
});
