// remix-serve looks a request up in `build/client`, then in `public/`, which the build copied into the first.
import type http from "node:http";

type ExpressApp = http.RequestListener & { _router?: { stack?: { name?: string }[] } };
const STATIC_LAYER = "serveStatic"; // serve-static's middleware, as Express 4 names its router layer

export function staticLayerCounts(server: http.Server): number[] {
  return (server.listeners("request") as ExpressApp[]).map(
    (app) => app._router?.stack?.filter((layer) => layer.name === STATIC_LAYER).length ?? 0,
  );
}

/** The second lookup goes (docs/decisions/0100); any other count of static layers is left as it is. */
export function dropPublicLookup(server: http.Server): void {
  for (const app of server.listeners("request") as ExpressApp[]) {
    const stack = app._router?.stack;
    const statics = stack?.filter((layer) => layer.name === STATIC_LAYER) ?? [];
    if (stack && statics.length === 2) stack.splice(stack.indexOf(statics[1]!), 1);
  }
}
