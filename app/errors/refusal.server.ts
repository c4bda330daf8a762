import { getLogger } from "~/logging/logger.server";
import { routePatternOf } from "~/routing/request-route.server";
import type { Refusal } from "./refusal";
import { recordRefusal, requestedPath, currentOrNewRequestId } from "~/request-scope.server";

export type { Refusal } from "./refusal";

/**
 * Refuses the current request: one info line (an operator behind a proxy that
 * drops the Host sees why every form post is refused), no Sentry event, the
 * refusal's status and headers. Once per request, though the framework may report it per route.
 */
export function refuseRequest(request: Request, refusal: Refusal): void {
  if (!recordRefusal(refusal)) return;
  getLogger().info(
    {
      requestId: currentOrNewRequestId(),
      method: request.method,
      path: requestedPath(request),
      route: routePatternOf(new URL(request.url)),
      status: refusal.status,
      reason: refusal.reason,
    },
    "request refused",
  );
}
