import pino from "pino";
import { getEnv } from "~/env.server";

/**
 * The server's logger: JSON lines on stdout in production (one object per
 * line, for log shippers and `grep`), readable colour output in development.
 */
function createLogger() {
  const env = getEnv();
  return pino({
    level: env.LOG_LEVEL,
    base: undefined, // no pid/hostname noise: the platform adds its own
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    ...(env.NODE_ENV === "development"
      ? { transport: { target: "pino-pretty", options: { colorize: true } } }
      : {}),
  });
}

export const logger = createLogger();
