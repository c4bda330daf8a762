// Modules generated at build time by plugins in vite.config.ts.
declare module "virtual:route-patterns" {
  import type { RoutePattern } from "~/routing/route-patterns";
  const patterns: RoutePattern[];
  export default patterns;
}
