/**
 * The paths that serve machines, not people. Liveness is a route
 * (app/routes/healthz.ts); readiness a pre-app handler (server/shutdown.ts),
 * because it must say 503 while the app still serves. Under app/ so both sides can import them.
 */

/** Liveness: 200 while the process can run a request through Remix, also while draining. */
export const LIVENESS_PATH = "/healthz";

/** Readiness: 503 from the moment the server starts draining. */
export const READINESS_PATH = "/readyz";

/** Paths that serve machines, not people (liveness and readiness): never traced, not in the access log. */
export const OPERATIONAL_PATHS: readonly string[] = [LIVENESS_PATH, READINESS_PATH];

/** The path of a request target (`/a/b?x=1` → `/a/b`), without building an array on the request path. */
export function pathOf(target: string): string {
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}
