import { createRequire } from "node:module";
import type { ServerBuild } from "@remix-run/node";
import * as Sentry from "@sentry/node";

/**
 * What the server side needs from Remix, in place of `@sentry/remix`'s server
 * instrumentation, which costs every request (sampled or not) two more
 * isolation scopes, a re-read of the request, OpenTelemetry spans for the
 * request and each loader, and a copied Response for the `Server-Timing`
 * header (bench/README.md, "Where the time goes"). Here:
 *
 * - the request span is the HTTP integration's, created only for requests
 *   the server decided to trace (sentry.server.ts);
 * - each loader and action gets a span (`loader.remix`, `action.remix`) when,
 *   and only when, it runs inside a sampled request span;
 * - a thrown 5xx Response is one error event (Remix's handleError never sees
 *   Responses, so the digest path in server-errors.server.ts cannot).
 */

type DataFunction = (args: { request: Request }) => unknown;
type RouteModule = Record<string, unknown> & { loader?: DataFunction; action?: DataFunction };

const WRAPPED = Symbol.for("remix-scaffold.wrapped");

async function reportThrownResponse(response: Response, kind: "loader" | "action") {
  if (response.status < 500) return;
  // The body says what went wrong ("Upstream said no"); a clone leaves Remix's copy unread.
  const text = await response
    .clone()
    .text()
    .catch(() => "");
  const error = new Error(text || response.statusText || `${response.status} Response`);
  Sentry.captureException(error, {
    mechanism: { type: "auto.function.remix.server", handled: false, data: { function: kind } },
  });
}

function wrapDataFunction(fn: DataFunction, kind: "loader" | "action", routeId: string): DataFunction {
  const wrapped = async function (this: unknown, args: { request: Request }) {
    const run = () => fn.call(this, args);
    const parent = Sentry.getActiveSpan();
    try {
      // An untraced request has no recording span (at most the remote parent
      // of an incoming trace): the loader then runs as if unwrapped.
      return parent?.isRecording()
        ? await Sentry.startSpan(
            {
              name: routeId,
              op: `${kind}.remix`,
              attributes: { "sentry.origin": "auto.function.remix", "code.function": kind },
            },
            run,
          )
        : await run();
    } catch (thrown) {
      if (thrown instanceof Response && !args.request.signal.aborted) {
        await reportThrownResponse(thrown, kind);
      }
      throw thrown;
    }
  };
  return Object.assign(wrapped, { [WRAPPED]: true });
}

/** The build with every route's loader and action wrapped; the build itself is not changed. */
export function instrumentBuild(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const module = { ...(route.module as unknown as RouteModule) };
    for (const kind of ["loader", "action"] as const) {
      const fn = module[kind];
      if (typeof fn === "function" && !(WRAPPED in fn)) module[kind] = wrapDataFunction(fn, kind, id);
    }
    routes[id] = { ...route, module: module as unknown as ServerBuild["routes"][string]["module"] };
  }
  return { ...build, routes };
}

type CreateRequestHandler = (build: unknown, ...rest: unknown[]) => unknown;

/**
 * Wraps Remix's `createRequestHandler` so every build it is given (remix-serve
 * passes the production build once; the dev server a function per request)
 * is instrumented. Remix is loaded here, when Sentry starts: nothing of it
 * needs to be patched before it loads.
 */
export function instrumentRemixServer(): void {
  const runtime = createRequire(import.meta.url)("@remix-run/server-runtime") as {
    createRequestHandler: CreateRequestHandler;
  };
  const original = runtime.createRequestHandler;
  if (WRAPPED in original) return;
  const instrument = (build: unknown): unknown => {
    if (typeof build === "function") {
      return async (...args: unknown[]) => instrument(await (build as (...a: unknown[]) => unknown)(...args));
    }
    return instrumentBuild(build as ServerBuild);
  };
  runtime.createRequestHandler = Object.assign(
    function (this: unknown, build: unknown, ...rest: unknown[]) {
      return original.call(this, instrument(build), ...rest);
    },
    { [WRAPPED]: true },
  );
}
