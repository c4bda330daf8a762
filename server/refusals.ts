import { refuseRequest } from "~/errors/refusal.server";
import { frameworkRefusal } from "./adapter/framework-refusals";
import type { ErrorHandler } from "./data-functions";

/**
 * The build's `handleError` with the framework's refusals (adapter/framework-refusals.ts)
 * taken out and refused; everything else goes on as a failure.
 */
export function refusingHandleError(handleError: ErrorHandler | undefined): ErrorHandler {
  return (error, args) => {
    const refusal = frameworkRefusal(error, args.request);
    if (refusal) return refuseRequest(args.request, refusal);
    return handleError?.(error, args);
  };
}
