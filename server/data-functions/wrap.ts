import type { Refusal } from "~/refusals.server";
import { isThrownData, statusOfThrownData } from "~/errors/thrown-response.server";
import { keysForMessage, keysOf, kindOf } from "~/privacy/masking";
import { limitRequestBody, refusingUnreadableBodies, UnreadableBodyError } from "~/http/request-body.server";
import { checkDataBounds } from "./data-bounds";

/** Why not the framework's instrumentation API: docs/decisions/0060-one-route-wrapper-for-both-frameworks.md. */

type DataFunctionArgs = { request: Request; params: unknown; context: unknown };
type DataFunction = (args: DataFunctionArgs) => unknown;
export type ErrorHandler = (error: unknown, args: DataFunctionArgs) => unknown;

export type RouteTable = Record<string, { module: object }>;
export type DataFunctionSpan = <T>(kind: "loader" | "action", routeId: string, run: () => T) => T;

export interface WrapOptions {
  /** Gets thrown 5xx Responses and `data()`, which the framework hands to nobody. */
  handleError: ErrorHandler | undefined;
  maxBodyBytes: number;
  refuse?: (request: Request, refusal: Refusal) => void;
  /** Where the framework gives no span of its own (Remix 2). */
  span?: DataFunctionSpan;
}

function isServerFailureAnswer(thrown: unknown): boolean {
  if (thrown instanceof Response) return thrown.status >= 500;
  return isThrownData(thrown) && statusOfThrownData(thrown) >= 500;
}

/** The browser revives a thrown `{ __type: "Error", __subType }` as `new window[__subType]()` (GHSA-337j-9hxr-rhxg). */
function safeToThrow(thrown: unknown, kind: string, routeId: string): unknown {
  if (thrown instanceof Error || thrown instanceof Response || isThrownData(thrown)) return thrown;
  // Its keys say which failure it was; its values may name a user.
  const what =
    typeof thrown === "object" && thrown
      ? `${kindOf(thrown)} with keys: ${keysForMessage(keysOf(thrown))}`
      : kindOf(thrown);
  return new TypeError(
    `The ${kind} of ${routeId} threw a value that is neither an Error nor a Response (${what})`,
  );
}

function wrapDataFunction(
  fn: DataFunction,
  kind: "loader" | "action",
  routeId: string,
  { handleError, maxBodyBytes, refuse, span = (_kind, _id, run) => run() }: WrapOptions,
): DataFunction {
  return async function (this: unknown, args: DataFunctionArgs) {
    // An unreadable form or JSON body is the client's doing (415 / 400), not a failure.
    const body = limitRequestBody(args.request, maxBodyBytes);
    const request = kind === "action" ? refusingUnreadableBodies(body.request) : body.request;
    try {
      const result = await span(kind, routeId, () => fn.call(this, { ...args, request }));
      checkDataBounds(result);
      return result;
    } catch (thrown) {
      if (body.exceeded()) refused(413, "Payload Too Large", "body too large");
      if (thrown instanceof UnreadableBodyError) {
        const { status, reason } = thrown.refusal;
        refused(status, status === 415 ? "Unsupported Media Type" : "Bad Request", reason);
      }
      // An Error is the framework's to hand to the build's handleError.
      if (thrown instanceof Error) throw thrown;
      if (isServerFailureAnswer(thrown)) await handleError?.(thrown, args);
      throw safeToThrow(thrown, kind, routeId);
    }
    function refused(status: number, statusText: string, reason: string): never {
      refuse?.(args.request, { status, reason });
      throw new Response(null, { status, statusText });
    }
  };
}

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
