import { route, type RouteConfig } from "@remix-run/route-config";
import { flatRoutes } from "@remix-run/fs-routes";
import { buildFixtureRoutes, buildGeneratedRoutes, ignoredRouteFiles } from "../remix.config.js";

// File-system routes from app/routes/, plus the fixture routes (and the
// benchmark's generated routes) when, and only when, the build was made for
// the tests or the benchmark. Route files are relative to app/ (absolute
// paths break the server build's manifest lookup).
export default [
  ...(await flatRoutes({ ignoredRouteFiles })),
  ...Object.entries(buildFixtureRoutes).map(([path, file]) => route(path, `../e2e/fixtures/routes/${file}`)),
  // The benchmark's generated routes (BENCH_GENERATED_ROUTES), all the items fixture under ids of their own.
  ...buildGeneratedRoutes.map(({ path, id }) => route(path, "../e2e/fixtures/routes/items.$id.tsx", { id })),
] satisfies RouteConfig;
