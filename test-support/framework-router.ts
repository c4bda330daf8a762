/**
 * A real router of Remix's, for the tests of what reads it in the browser
 * (test-support/framework-router-cases.ts): made as `RemixBrowser` makes it,
 * with another history, and kept where it keeps it, `window.__remixRouter`.
 */
import { createMemoryHistory, createRouter, type AgnosticRouteObject } from "@remix-run/router";
import { vi } from "vitest";
import type { MountRouter } from "./framework-router-cases";

export const mountFrameworkRouter: MountRouter = (routes, { path, basename, loaderData }) => {
  const router = createRouter({
    routes: routes as AgnosticRouteObject[],
    basename,
    history: createMemoryHistory({ initialEntries: [path] }),
    // Hydrated, when given the page's data: it came with the document.
    hydrationData: loaderData && { loaderData },
  }).initialize();
  vi.stubGlobal("window", { __remixRouter: router });
  return router;
};
