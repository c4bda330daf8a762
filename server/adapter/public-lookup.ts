// remix-serve looks a request up in `build/client`, then in `public/`, which the build copied into the first.
import type http from "node:http";

type Layer = { name?: string };
type ExpressApp = http.RequestListener & { _router?: { stack?: Layer[] } };
const STATIC_LAYER = "serveStatic"; // serve-static's middleware, as Express 4 names its router layer

const expressApps = (server: http.Server) => server.listeners("request") as ExpressApp[];
const staticLayers = (app: ExpressApp) =>
  app._router?.stack?.filter((layer) => layer.name === STATIC_LAYER) ?? [];

export function staticLayerCounts(server: http.Server): number[] {
  return expressApps(server).map((app) => staticLayers(app).length);
}

/** The second lookup goes (docs/decisions/0100); any other count of static layers is left as it is. */
export function dropPublicLookup(server: http.Server): void {
  for (const app of expressApps(server)) {
    const statics = staticLayers(app);
    if (statics.length === 2) app._router!.stack!.splice(app._router!.stack!.indexOf(statics[1]!), 1);
  }
}
