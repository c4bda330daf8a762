import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { pathOf } from "~/http/operational-paths";
import { getLogger } from "~/logging/logger.server";
import { recordRefusal, requestedPath, currentOrNewRequestId, requestIdOf } from "~/request-scope.server";
import { routePatternOf } from "~/routing/request-route.server";

/**
 * Refusals: requests the client got wrong, as opposed to failures of ours
 * (docs/decisions/0064-client-refusals.md). Each is classified where it is
 * raised and answered and logged here: a 4xx with a short answer, one info
 * line `request refused`, no Sentry event (an operator behind a proxy that
 * drops the Host sees why every form post is refused, and no one is paged).
 *
 * - Before the app (server/request-guards.ts, server/body-limit.ts): `refuseBeforeApp`.
 * - In the framework (server/adapter/framework-refusals.ts) and in a route
 *   (app/forms/, app/http/request-body.server.ts): `refuseRequest`.
 */
export interface Refusal {
  /** 400, 403, 405, 413, 415…; never 5xx. */
  status: number;
  /** What the client got wrong, for the log line (`cross-origin action`). */
  reason: string;
  /** Headers the answer must carry (`Allow` on a 405). */
  headers?: Record<string, string>;
}

/** Longest path a refusal line repeats: the client chose it, and a line need not carry all of it. */
const MAX_LOGGED_PATH = 512;

function logRefusal(
  where: { requestId: string; method?: string; path: string; route?: string },
  refusal: Refusal,
) {
  getLogger().info(
    { ...where, path: where.path.slice(0, MAX_LOGGED_PATH), status: refusal.status, reason: refusal.reason },
    "request refused",
  );
}

/**
 * Refuses the request the app is handling: logged once, though the framework
 * may report it per route, and answered on its response through the request
 * scope (server/adapter/refusal-response.ts on Remix 2). A route that raises
 * it throws its own 4xx Response for the error boundary.
 */
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

/** Refuses a request before the app sees it, with a short text; the id is the one the answer carries. */
export function refuseBeforeApp(
  request: IncomingMessage,
  response: ServerResponse,
  refusal: Refusal & { text: string },
): void {
  response.writeHead(refusal.status, { "Content-Type": "text/plain; charset=utf-8", ...refusal.headers });
  response.end(refusal.text);
  logRefusal(
    { requestId: requestIdOf(request), method: request.method, path: pathOf(request.url ?? "/") },
    refusal,
  );
}

/**
 * How a refused request is answered over the framework's own answer, which
 * may be a bare 500 it built after `handleError` returned:
 * - `framework`: not an error, or already the refusal's status (its 405 page): it stands;
 * - `status`: a single fetch (turbo-stream, `text/x-script`), whose encoding the
 *   framework's browser code decodes (text would throw "Unable to decode"
 *   there): only the status becomes the refusal's;
 * - `text`: the refusal's status and `refusalText`, the framework's body dropped.
 * The refusal's headers are added where the framework's answer has none.
 */
export function refusalAnswerOver(status: number, contentType: string, refusal: Refusal) {
  if (status < 400 || status === refusal.status) return "framework";
  return contentType.startsWith("text/x-script") ? "status" : "text";
}

export const REFUSAL_TEXT_HEADERS = {
  "Content-Type": "text/plain; charset=utf-8",
  "Cache-Control": "no-store",
};

/** `403 Forbidden: cross-origin action`. */
export function refusalText(refusal: Refusal): string {
  return `${refusal.status} ${STATUS_CODES[refusal.status] ?? ""}: ${refusal.reason}\n`;
}
