import type { ServerBuild } from "@remix-run/node";
import type { ErrorHandler } from "../data-functions/wrap";

/** For the adapter's refusal tests: a root without an action, `/act` that succeeds, `/fail` that throws. */
export function buildWith(handleError: ErrorHandler | ((error: unknown) => unknown)): ServerBuild {
  const component = () => null;
  return {
    mode: "production",
    entry: {
      module: {
        default: (_request: Request, status: number) => new Response("document", { status }),
        handleError,
      },
    },
    routes: {
      root: { id: "root", path: "", module: { default: component } },
      "routes/act": {
        id: "routes/act",
        parentId: "root",
        path: "act",
        module: { default: component, action: () => "acted" },
      },
      "routes/fail": {
        id: "routes/fail",
        parentId: "root",
        path: "fail",
        module: {
          default: component,
          action: () => {
            throw new Error("boom");
          },
        },
      },
    },
    assets: { routes: {}, version: "1", url: "/manifest.js", entry: { module: "/entry.js", imports: [] } },
    publicPath: "/",
    assetsBuildDirectory: "public",
    future: { v3_singleFetch: true },
    basename: undefined,
    isSpaMode: false,
    // React Router 7's build has these too.
    ssr: true,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}
