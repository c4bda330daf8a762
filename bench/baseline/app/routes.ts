import { index, route, type RouteConfig } from "@remix-run/route-config";
import { benchGeneratedRoutes, benchRouteCount } from "../../../e2e/fixtures/routes";

// The measured paths, at the same URLs as in the app's e2e build, plus the
// generated routes of the route-count dimension (BENCH_GENERATED_ROUTES), as in the app.
export default [
  index("routes/_index.tsx"),
  route("fixtures/items/:id", "routes/items.$id.tsx"),
  route("fixtures/action-ok", "routes/action-ok.tsx"),
  ...benchGeneratedRoutes(benchRouteCount()).map(({ path, id }) =>
    route(path, "routes/items.$id.tsx", { id }),
  ),
  route("*", "routes/$.tsx"),
] satisfies RouteConfig;
