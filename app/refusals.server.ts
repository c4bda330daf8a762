import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { pathOf } from "~/http/operational-paths";
import { getLogger } from "~/logging/logger.server";
import { requestTraceOf } from "~/monitoring/request-trace.server";
import { recordRefusal, requestedPath, currentOrNewRequestId, requestIdOf } from "~/request-scope.server";
import { routePatternOf } from "~/routing/request-route.server";

/** A request the client got wrong (docs/decisions/0064): a short 4xx, one info line, no Sentry event. */
export interface Refusal {
  status: number;
  reason: string;
  headers?: Record<string, string>;
}

/** The client chose the path: a line need not carry all of it. */
const MAX_LOGGED_PATH = 512;

function logRefusal(
  where: { requestId: string; trace_id?: string; method?: string; path: string; route?: string },
  refusal: Refusal,
) {
  getLogger().info(
    { ...where, path: where.path.slice(0, MAX_LOGGED_PATH), status: refusal.status, reason: refusal.reason },
    "request refused",
  );
}

/** Logged once, though the framework may report it per route; the request scope has the response answer it. */
export function refuseRequest(request: Request, refusal: Refusal): void {
  if (!recordRefusal(refusal)) return;
  logRefusal(
    {
      requestId: currentOrNewRequestId(),
      method: request.method,
      path: requestedPath(request),
      route: routePatternOf(new URL(request.url)),
    },
    refusal,
  );
}

export function refuseBeforeApp(
  request: IncomingMessage,
  response: ServerResponse,
  refusal: Refusal & { text: string },
): void {
  response.writeHead(refusal.status, { "Content-Type": "text/plain; charset=utf-8", ...refusal.headers });
  response.end(refusal.text);
  logRefusal(
    {
      requestId: requestIdOf(request),
      // Outside the request's scope, so named here as its other lines do.
      trace_id: requestTraceOf(request)?.traceId,
      method: request.method,
      path: pathOf(request.url ?? "/"),
    },
    refusal,
  );
}

/** The framework's answer stands if it says so; a single fetch, which the browser decodes, gets only the status. */
export function refusalAnswerOver(status: number, contentType: string, refusal: Refusal) {
  if (status < 400 || status === refusal.status) return "framework";
  return contentType.startsWith("text/x-script") ? "status" : "text";
}

export const REFUSAL_TEXT_HEADERS = {
  "Content-Type": "text/plain; charset=utf-8",
  "Cache-Control": "no-store",
};

export function refusalText(refusal: Refusal): string {
  return `${refusal.status} ${STATUS_CODES[refusal.status] ?? ""}: ${refusal.reason}\n`;
}
