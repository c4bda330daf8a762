/** Liveness is a route (app/routes/healthz.ts), also 200 while draining. */
export const LIVENESS_PATH = "/healthz";

/** Readiness is a pre-app handler (server/shutdown.ts): it says 503 while the app still serves. */
export const READINESS_PATH = "/readyz";

/** Never traced, not in the access log. */
export const OPERATIONAL_PATHS: readonly string[] = [LIVENESS_PATH, READINESS_PATH];

/** No array built: this runs on every request. */
export function pathOf(target: string): string {
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}
