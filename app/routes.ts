import { route, type RouteConfig } from "@remix-run/route-config";
import { flatRoutes } from "@remix-run/fs-routes";
import { fixtureRoutes, ignoredRouteFiles, withFixtures } from "../remix.config.js";

// File-system routes from app/routes/, plus the end-to-end fixture routes
// when (and only when) the build was made for the tests. Route files are
// relative to app/ (absolute paths break the server build's manifest lookup).
export default [
  ...(await flatRoutes({ ignoredRouteFiles })),
  ...(withFixtures
    ? Object.entries(fixtureRoutes).map(([path, file]) => route(path, `../e2e/fixtures/routes/${file}`))
    : []),
] satisfies RouteConfig;
