/**
 * Liveness probe for orchestrators: 200 `ok` when the server can run a
 * request through Remix, also while it drains during shutdown (readiness,
 * `/readyz`, is what tells balancers to stop sending: server/shutdown.ts).
 * Not traced and left out of the access log (OPERATIONAL_PATHS in
 * app/http/operational-paths.ts).
 */
export function loader() {
  return new Response("ok", {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
