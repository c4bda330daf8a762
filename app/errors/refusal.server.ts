import { getLogger } from "~/logging/logger.server";
import { routePatternOf } from "~/routing/request-route.server";
import type { Refusal } from "./refusal";
import { recordRefusal, requestedPath, requestIdFor } from "~/request-scope.server";

export type { Refusal } from "./refusal";

/**
 * Refuses the current request: one info line (an operator behind a proxy
 * that drops the Host sees why every form post is refused), no Sentry event,
 * and the response answers with the refusal's status and headers
 * (server/adapter/refusal-response.ts turns the framework's 500 into it).
 * A request refused twice (the framework reports some refusals once per
 * route) gets one line.
 */
export function refuseRequest(request: Request, refusal: Refusal): void {
  if (!recordRefusal(refusal)) return;
  getLogger().info(
    {
      requestId: requestIdFor(request),
      method: request.method,
      path: requestedPath(request),
      route: routePatternOf(new URL(request.url)),
      status: refusal.status,
      reason: refusal.reason,
    },
    "request refused",
  );
}
