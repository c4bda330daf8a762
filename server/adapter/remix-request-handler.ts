import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import { data, type ServerBuild } from "@remix-run/node";
import { limitRequestBody } from "~/http/request-body.server";
import { withDataFunctionSpan } from "~/monitoring/remix-spans.server";
import { recordServedRoutes } from "~/routing/request-route.server";
import { checkDataBounds } from "../data-bounds";
import { manifestScopeOf, recordManifestScope } from "../manifest-guard";

/**
 * Adapter (server/adapter/README.md), a global patch: Remix's `createRequestHandler` is wrapped so that every
 * build it is given (remix-serve passes the production build once; the Vite
 * dev server a fresh one per request) has its routes recorded for route
 * patterns (app/routing/request-route.server.ts) and each loader and action
 * wrapped:
 *  - a span when the request is traced (app/monitoring/remix-spans.server.ts);
 *  - a thrown 5xx Response goes to the app's own `handleError`
 *    (app/errors/server-failure.server.ts) like any other failure: Remix
 *    hands thrown Responses to nobody, so without this they get no digest,
 *    no log line and no event;
 *  - the request's body is cut at the body limit (a 413 once more arrived,
 *    whatever Content-Length said; server/body-limit.ts refuses declared ones);
 *  - what it returns is bounded before Remix encodes it (data-bounds.ts);
 *  - a thrown value that is neither an Error nor a Response becomes an Error:
 *    the browser revives `{ __type: "Error", __subType: <any global> }` among
 *    route errors as `new window[__subType](message)` (GHSA-337j-9hxr-rhxg,
 *    fixed only in React Router 7.18), and such an object may come from
 *    request data. As an Error it is an unexpected failure like any other.
 * The build's basename and deepest route bound manifest requests (manifest-guard.ts).
 * remix-request-handler.test.ts fails if the patched export changes shape.
 */

type DataFunctionArgs = { request: Request; params: unknown; context: unknown };
type DataFunction = (args: DataFunctionArgs) => unknown;
type RouteModule = Record<string, unknown> & { loader?: DataFunction; action?: DataFunction };
type ErrorHandler = (error: unknown, args: DataFunctionArgs) => unknown;

const WRAPPED = Symbol.for("remix-scaffold.wrapped");

/**
 * The Request Remix's handler was called with. Loaders get a copy of it (Remix
 * strips `?index` and `_routes`), but the document renderer, `handleError`
 * and `handleDataRequest` get this one, and the digest is keyed by it.
 */
const handledRequest = new AsyncLocalStorage<Request>();

export interface RequestLimits {
  /** Largest request body in bytes (BODY_SIZE_LIMIT). */
  maxBodyBytes: number;
}

/** What `data()` returns: thrown, Remix answers with its status and data (an ErrorResponse, never revived). */
const DataWithResponseInit = data(null).constructor;

/** The thrown value Remix may hand to the browser: Errors, Responses and `data()`; anything else as an Error. */
function safeToThrow(thrown: unknown, kind: string, routeId: string): unknown {
  if (thrown instanceof Error || thrown instanceof Response || thrown instanceof DataWithResponseInit)
    return thrown;
  const what =
    thrown === null
      ? "null"
      : typeof thrown === "object"
        ? (thrown.constructor?.name ?? "object")
        : typeof thrown;
  return new TypeError(
    `The ${kind} of ${routeId} threw a value that is neither an Error nor a Response (${what})`,
  );
}

function wrapDataFunction(
  fn: DataFunction,
  kind: "loader" | "action",
  routeId: string,
  handleError: ErrorHandler | undefined,
  limits: RequestLimits,
): DataFunction {
  const wrapped = async function (this: unknown, args: DataFunctionArgs) {
    const body = limitRequestBody(args.request, limits.maxBodyBytes);
    try {
      const result = await withDataFunctionSpan(kind, routeId, () =>
        fn.call(this, { ...args, request: body.request }),
      );
      checkDataBounds(result);
      return result;
    } catch (thrown) {
      if (body.exceeded()) throw new Response(null, { status: 413, statusText: "Payload Too Large" });
      if (thrown instanceof Response && thrown.status >= 500) {
        await handleError?.(thrown, { ...args, request: handledRequest.getStore() ?? args.request });
      }
      throw safeToThrow(thrown, kind, routeId);
    }
  };
  return Object.assign(wrapped, { [WRAPPED]: true });
}

/** The build with every route's loader and action wrapped; the build itself is not changed. */
export function instrumentBuild(build: ServerBuild, limits: RequestLimits): ServerBuild {
  const handleError = build.entry?.module.handleError as ErrorHandler | undefined;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const module = { ...(route.module as unknown as RouteModule) };
    for (const kind of ["loader", "action"] as const) {
      const fn = module[kind];
      if (typeof fn === "function" && !(WRAPPED in fn))
        module[kind] = wrapDataFunction(fn, kind, id, handleError, limits);
    }
    routes[id] = { ...route, module: module as unknown as ServerBuild["routes"][string]["module"] };
  }
  return { ...build, routes };
}

type CreateRequestHandler = (build: unknown, ...rest: unknown[]) => unknown;

/** The module whose export remix-serve (through @remix-run/express and @remix-run/node) calls. */
export const serverRuntime = () =>
  createRequire(import.meta.url)("@remix-run/server-runtime") as {
    createRequestHandler: CreateRequestHandler;
  };

/** Installs the wrapper once. Remix is loaded here, at boot: nothing of it needs patching before it loads. */
export function wrapRemixRequestHandler(limits: RequestLimits): void {
  const runtime = serverRuntime();
  const original = runtime.createRequestHandler;
  if (typeof original !== "function")
    throw new Error("@remix-run/server-runtime has no createRequestHandler");
  if (WRAPPED in original) return;
  const instrument = (build: unknown): unknown => {
    if (typeof build === "function") {
      return async (...args: unknown[]) => instrument(await (build as (...a: unknown[]) => unknown)(...args));
    }
    recordServedRoutes((build as ServerBuild).routes);
    recordManifestScope(manifestScopeOf((build as ServerBuild).routes, (build as ServerBuild).basename));
    return instrumentBuild(build as ServerBuild, limits);
  };
  runtime.createRequestHandler = Object.assign(
    function (this: unknown, build: unknown, ...rest: unknown[]) {
      const handle = original.call(this, instrument(build), ...rest) as (
        request: Request,
        ...more: unknown[]
      ) => unknown;
      return (request: Request, ...more: unknown[]) =>
        handledRequest.run(request, () => handle(request, ...more));
    },
    { [WRAPPED]: true },
  );
}
