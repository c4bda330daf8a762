export const LIVENESS_PATH = "/healthz";

export const READINESS_PATH = "/readyz";

/** Never traced, not in the access log. */
export const OPERATIONAL_PATHS: readonly string[] = [LIVENESS_PATH, READINESS_PATH];

/** No array built: this runs on every request. */
export function pathOf(target: string): string {
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}
