import { index, route, type RouteConfig } from "@remix-run/route-config";

// The measured paths, at the same URLs as in the app's e2e build.
export default [
  index("routes/_index.tsx"),
  route("fixtures/items/:id", "routes/items.$id.tsx"),
  route("fixtures/action-ok", "routes/action-ok.tsx"),
  route("*", "routes/$.tsx"),
] satisfies RouteConfig;
