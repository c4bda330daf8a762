/**
 * A real router of React Router's, for the tests of what reads it in the browser
 * (test-support/framework-router-cases.ts): `createMemoryRouter`, the router
 * `HydratedRouter` creates with another history, kept where `HydratedRouter`
 * keeps it, `window.__reactRouterDataRouter`.
 */
import { createMemoryRouter, type RouteObject } from "react-router";
import { vi } from "vitest";
import type { MountRouter } from "./framework-router-cases";

export const mountFrameworkRouter: MountRouter = (routes, { path, basename, loaderData }) => {
  const router = createMemoryRouter(routes as RouteObject[], {
    basename,
    initialEntries: [path],
    // Hydrated, when given the page's data: it came with the document.
    hydrationData: loaderData && { loaderData },
  });
  vi.stubGlobal("window", { __reactRouterDataRouter: router });
  return router;
};
