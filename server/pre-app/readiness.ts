import { pathOf, READINESS_PATH } from "~/http/operational-paths";
import type { PreAppHandler } from "./handler";

/** From the first shutdown signal on (server/shutdown.ts): readiness fails while the server still serves. */
let draining = false;

export function startDraining(): void {
  draining = true;
}

/** While draining every response says `Connection: close`, so pooled connections reconnect elsewhere. */
export const answerReadiness: PreAppHandler = (request, response) => {
  if (draining) response.setHeader("Connection", "close");
  if (pathOf(request.url ?? "/") !== READINESS_PATH) return false;
  response.writeHead(draining ? 503 : 200, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
  });
  response.end(draining ? "draining" : "ready");
  return true;
};
