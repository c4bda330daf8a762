import { flatRoutes } from "@remix-run/fs-routes";
import type { RouteConfig, RouteConfigEntry } from "@remix-run/route-config";

/**
 * Routes another build configuration adds before Remix reads this file (the
 * test and benchmark builds add their fixtures: e2e/fixtures/vite.config.ts).
 * The production build adds none, so only `app/routes/` is ever served.
 */
const ADDED_ROUTES = Symbol.for("remix-scaffold.added-routes");

const added = (globalThis as { [ADDED_ROUTES]?: RouteConfigEntry[] })[ADDED_ROUTES] ?? [];

// File-system routes from app/routes/ (Remix's flat-routes convention); test files are not routes.
export default [
  ...(await flatRoutes({ ignoredRouteFiles: ["**/*.test.{ts,tsx}", "**/.*"] })),
  ...added,
] satisfies RouteConfig;
