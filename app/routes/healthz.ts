/** Liveness: also `ok` while draining; readiness (`/readyz`) is what tells balancers to stop. */
export function loader() {
  return new Response("ok", {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
