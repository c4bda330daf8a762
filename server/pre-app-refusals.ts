import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { requestIdOf } from "~/request-scope.server";
import { pathOf } from "~/http/operational-paths";
import { getLogger } from "~/logging/logger.server";

/** Longest path a refusal line repeats: the client chose it, and a line need not carry all of it. */
const MAX_LOGGED_PATH = 512;

/**
 * How the pre-app guards (request-guards.ts, body-limit.ts) refuse a request
 * before the app sees it: the status with a short text, and the same one info
 * line `request refused` that the app writes for its refusals
 * (app/errors/refusal.server.ts), with the request id the answer carries.
 */
export function refuseBeforeApp(
  request: IncomingMessage,
  response: ServerResponse,
  refusal: { status: number; reason: string; text: string; headers?: OutgoingHttpHeaders },
): void {
  // The response carries the id already (server/response-headers.ts).
  const requestId = requestIdOf(request);
  response.writeHead(refusal.status, { "Content-Type": "text/plain; charset=utf-8", ...refusal.headers });
  response.end(refusal.text);
  getLogger().info(
    {
      requestId,
      method: request.method,
      path: pathOf(request.url ?? "/").slice(0, MAX_LOGGED_PATH),
      status: refusal.status,
      reason: refusal.reason,
    },
    "request refused",
  );
}
