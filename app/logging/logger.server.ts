import pino from "pino";
import { getEnv, instanceName } from "~/env.server";
import { currentRequestId } from "~/request-scope.server";
import { stdoutHasColours } from "./stdout-colours";

/**
 * The server's logger: JSON lines on stdout in production (one object per
 * line, for log shippers and `grep`), readable records in development, in
 * colour only where Node would colour stdout (pino-pretty's own default reads
 * the variables otherwise: FORCE_COLOR=0 would colour a pipe, and NO_COLOR
 * would outrank FORCE_COLOR).
 */
function createLogger() {
  const env = getEnv();
  const options = {
    level: env.LOG_LEVEL,
    // So a digest from a page leads to the right instance's logs.
    base: { instance: instanceName(env) },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    // Every line written while a request is handled names it, the app's own included.
    mixin: () => {
      const requestId = currentRequestId();
      return requestId === undefined ? {} : { requestId };
    },
  };
  if (env.NODE_ENV === "development") {
    return pino({
      ...options,
      transport: { target: "pino-pretty", options: { colorize: stdoutHasColours() } },
    });
  }
  // Synchronous writes: a line is whole on stdout before the next one starts
  // (other writers may share the stream), and none is lost at exit.
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

let logger: pino.Logger | undefined;

/** The server's logger, created on first use (so importing this module reads no environment). */
export function getLogger(): pino.Logger {
  logger ??= createLogger();
  return logger;
}
