import type { Refusal } from "~/errors/refusal";
import { isThrownData, statusOfThrownData } from "~/errors/thrown-response.server";
import { limitRequestBody, refusingUnreadableBodies, UnreadableBodyError } from "~/http/request-body.server";
import { withDataFunctionSpan } from "~/monitoring/remix-spans.server";
import { checkDataBounds } from "./data-bounds";

/**
 * Every route's loader and action, wrapped once when the server build loads
 * (server/wrapped-server-build.ts):
 *  - a span when the request is traced;
 *  - a thrown 5xx Response or `data()` goes to the app's `handleError` like any failure: the
 *    framework hands thrown answers to nobody, so they would get no digest, log line or event;
 *  - the body is cut at the body limit, whatever Content-Length said;
 *  - a body the action cannot read as a form or JSON is the client's doing: refused
 *    415 or 400 (app/http/request-body.server.ts), never reported;
 *  - what it returns is bounded before the framework encodes it (data-bounds.ts);
 *  - a thrown value that is neither an Error nor a Response becomes an Error: the
 *    browser code revives `{ __type: "Error", __subType: <any global> }` as
 *    `new window[__subType](message)` (GHSA-337j-9hxr-rhxg).
 * Why not the framework's instrumentation API: docs/decisions/0060-one-route-wrapper-for-both-frameworks.md.
 */

type DataFunctionArgs = { request: Request; params: unknown; context: unknown };
type DataFunction = (args: DataFunctionArgs) => unknown;
export type ErrorHandler = (error: unknown, args: DataFunctionArgs) => unknown;

/** What a server build's route table looks like, as far as the wrapper cares. */
export type RouteTable = Record<string, { module: object }>;

export interface WrapOptions {
  /** The build's `handleError` (entry.server), for thrown 5xx Responses. */
  handleError: ErrorHandler | undefined;
  /** Largest request body in bytes (BODY_SIZE_LIMIT). */
  maxBodyBytes: number;
  /** Refuses the request (app/errors/refusal.server.ts): a body too large, or unreadable. */
  refuse?: (request: Request, refusal: Refusal) => void;
}

/** A thrown 5xx answer: a Response or `data()` whose status says the server failed. */
function isServerFailureAnswer(thrown: unknown): boolean {
  if (thrown instanceof Response) return thrown.status >= 500;
  return isThrownData(thrown) && statusOfThrownData(thrown) >= 500;
}

/** The thrown value the framework may hand to the browser: Errors, Responses and `data()`; anything else as an Error. */
function safeToThrow(thrown: unknown, kind: string, routeId: string): unknown {
  if (thrown instanceof Error || thrown instanceof Response || isThrownData(thrown)) return thrown;
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
  { handleError, maxBodyBytes, refuse }: WrapOptions,
): DataFunction {
  return async function (this: unknown, args: DataFunctionArgs) {
    const body = limitRequestBody(args.request, maxBodyBytes);
    const request = kind === "action" ? refusingUnreadableBodies(body.request) : body.request;
    try {
      const result = await withDataFunctionSpan(kind, routeId, () => fn.call(this, { ...args, request }));
      checkDataBounds(result);
      return result;
    } catch (thrown) {
      if (body.exceeded()) refused(413, "Payload Too Large", "body too large");
      if (thrown instanceof UnreadableBodyError) {
        const { status, reason } = thrown.refusal;
        refused(status, status === 415 ? "Unsupported Media Type" : "Bad Request", reason);
      }
      if (isServerFailureAnswer(thrown)) await handleError?.(thrown, args);
      throw safeToThrow(thrown, kind, routeId);
    }
    function refused(status: number, statusText: string, reason: string): never {
      refuse?.(args.request, { status, reason });
      throw new Response(null, { status, statusText });
    }
  };
}

/** A copy of `routes` with every loader and action wrapped; the table passed in is not changed. */
export function wrapDataFunctions<Routes extends RouteTable>(routes: Routes, options: WrapOptions): Routes {
  const wrapped: RouteTable = {};
  for (const [id, route] of Object.entries(routes)) {
    const module: Record<string, unknown> = { ...route.module };
    for (const kind of ["loader", "action"] as const) {
      const fn = module[kind];
      if (typeof fn === "function") module[kind] = wrapDataFunction(fn as DataFunction, kind, id, options);
    }
    wrapped[id] = { ...route, module };
  }
  return wrapped as Routes;
}
