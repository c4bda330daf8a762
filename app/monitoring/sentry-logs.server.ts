import type { Log, NodeOptions } from "@sentry/node";
import type { Env } from "~/env.server";
import { maskPrivateText } from "~/privacy/masking";
import type { ServerSdk } from "./server-sdk.server";

/** Off, the pino integration is never created: pino's channel has no subscriber and costs nothing. */

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;

/** What identifies a line, its request and trace; no value a user typed. */
const KEPT_ATTRIBUTES = new Set([
  ...["instance", "requestId", "trace_id", "span_id", "digest", "method", "path", "route", "status"],
  ...["reason", "durationMs", "port", "pino.logger.level"],
]);
/** Of `err`: what app/errors/server-failure.server.ts made safe. */
const KEPT_ERROR_FIELDS = ["type", "message", "stack", "code", "fields", "answer"];

function scrubbedError(err: unknown): Record<string, unknown> | undefined {
  if (!err || typeof err !== "object") return undefined;
  const kept = KEPT_ERROR_FIELDS.filter((key) => key in err).map((key) => {
    const value = (err as Record<string, unknown>)[key];
    return [key, typeof value === "string" ? maskPrivateText(value) : value];
  });
  return Object.fromEntries(kept);
}

/** The same scrubbing as events: no cookies, headers, bodies or client addresses, whatever a line carries. */
export function scrubLog(log: Log): Log {
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(log.attributes ?? {})) {
    if (key.startsWith("sentry.") || KEPT_ATTRIBUTES.has(key)) attributes[key] = value;
    // A path is kept without its query, as a form's GET could put a field there.
    if (key === "path" && typeof value === "string") attributes.path = value.split("?")[0];
  }
  const err = scrubbedError(log.attributes?.err);
  if (err) attributes.err = err;
  return { ...log, message: maskPrivateText(String(log.message)), attributes };
}

export function sentryLogsOptions(
  sdk: ServerSdk,
  env: Env,
): Pick<NodeOptions, "beforeSendLog"> & { integrations: ReturnType<ServerSdk["node"]["pinoIntegration"]>[] } {
  if (env.SENTRY_LOGS_LEVEL === "off") return { integrations: [] };
  const levels = LEVELS.slice(LEVELS.indexOf(env.SENTRY_LOGS_LEVEL));
  return {
    beforeSendLog: scrubLog,
    // Lines become logs, never events: each failure already is one event.
    integrations: [sdk.node.pinoIntegration({ log: { levels: [...levels] }, error: { levels: [] } })],
  };
}
