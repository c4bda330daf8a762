import { route, type RouteConfig } from "@remix-run/route-config";
import { flatRoutes } from "@remix-run/fs-routes";
import { buildFixtureRoutes, ignoredRouteFiles } from "../remix.config.js";

// File-system routes from app/routes/, plus the fixture routes when (and only
// when) the build was made for the tests or the benchmark. Route files are
// relative to app/ (absolute paths break the server build's manifest lookup).
export default [
  ...(await flatRoutes({ ignoredRouteFiles })),
  ...Object.entries(buildFixtureRoutes).map(([path, file]) => route(path, `../e2e/fixtures/routes/${file}`)),
] satisfies RouteConfig;
