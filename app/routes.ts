import { flatRoutes } from "@remix-run/fs-routes";
import type { RouteConfig } from "@remix-run/route-config";

// File-system routes from app/routes/ (Remix's flat-routes convention); test files are not routes.
export default flatRoutes({ ignoredRouteFiles: ["**/*.test.{ts,tsx}", "**/.*"] }) satisfies RouteConfig;
