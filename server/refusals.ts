import { refuseRequest } from "~/errors/refusal.server";
import { frameworkRefusal } from "./adapter/framework-refusals";
import type { ErrorHandler } from "./data-functions";

/**
 * The build's `handleError` with the framework's refusals taken out: a
 * cross-origin action post, a malformed `Origin`, a legacy `?_data` request,
 * a method a route does not serve are the client's doing, answered with a
 * 4xx and one info line (app/errors/refusal.server.ts); everything else is a
 * failure and goes on to the app's handler (app/errors/server-failure.server.ts).
 */
export function refusingHandleError(handleError: ErrorHandler | undefined): ErrorHandler {
  return (error, args) => {
    const refusal = frameworkRefusal(error, args.request);
    if (refusal) return refuseRequest(args.request, refusal);
    return handleError?.(error, args);
  };
}
