/** Each entry anchored at the start: the SDK matches a string anywhere (`https://evil.example/?u=<entry>`). */

export const TRACE_PROPAGATION_TARGETS_MESSAGE =
  "must be a comma-separated list of http:// or https:// origins or URL prefixes without query, " +
  "such as https://api.example.com,http://auth.internal:8080/v2/";

/** An entry as written, normalised by the URL parser (`HTTPS://API.example.com:443` → `https://api.example.com/`). */
function normalizedTarget(text: string): string | undefined {
  const url = URL.parse(text);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
  // `?`, `#` or credentials in an entry are a mistake, not a prefix to match.
  if (url.hostname === "" || url.username || url.password || url.search || url.hash) return undefined;
  if (text.includes("?") || text.includes("#") || text.includes("*")) return undefined;
  return url.href;
}

export function parseTracePropagationTargets(value: string): string[] | undefined {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) return undefined;
  const targets = entries.map(normalizedTarget);
  return targets.every((target) => target !== undefined) ? targets : undefined;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/** The origin exactly (default port optional), the path as a prefix ending at a segment: never `/v20` for `/v2`. */
export function targetPattern(target: string): RegExp {
  const url = new URL(target);
  const port = url.port === "" ? `(?::${DEFAULT_PORTS[url.protocol]})?` : `:${url.port}`;
  const path = url.pathname === "/" ? "" : url.pathname;
  const end = path.endsWith("/") ? "" : "(?:[/?#]|$)";
  return new RegExp(`^${escaped(`${url.protocol}//${url.hostname}`)}${port}${escaped(path)}${end}`);
}

export function ownLoopbackOrigins(port: number): string[] {
  return [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`, `http://[::1]:${port}/`];
}

/** The default's list while its port is unknown (`PORT=0`): the SDK reads the same array on every call. */
let awaitingPort: RegExp[] | undefined;

export function tracePropagationTargets(env: {
  SENTRY_TRACE_PROPAGATION_TARGETS?: string[];
  PORT: number;
}): RegExp[] {
  const byDefault = env.SENTRY_TRACE_PROPAGATION_TARGETS === undefined;
  const targets =
    byDefault && env.PORT === 0 ? [] : (env.SENTRY_TRACE_PROPAGATION_TARGETS ?? ownLoopbackOrigins(env.PORT));
  const patterns = targets.map(targetPattern);
  awaitingPort = byDefault && env.PORT === 0 ? patterns : undefined;
  return patterns;
}

export function listeningOn(port: number): void {
  awaitingPort?.push(...ownLoopbackOrigins(port).map(targetPattern));
  awaitingPort = undefined;
}
