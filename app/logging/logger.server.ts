import pino from "pino";
import { getEnv, instanceName } from "~/env.server";
import { stdoutHasColours } from "./stdout-colours";
import { coalescedStdout } from "./stdout-lines.server";
import { requestLogFields } from "./request-log-fields.server";

function createLogger() {
  const env = getEnv();
  const instance = instanceName(env);
  const options = {
    level: env.LOG_LEVEL,
    // So a digest from a page leads to the right instance's logs.
    base: { instance },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: requestLogFields,
  };
  if (env.NODE_ENV === "development") {
    return pino({
      ...options,
      // pino-pretty's own default would colour a pipe under FORCE_COLOR=0.
      transport: { target: "pino-pretty", options: { colorize: stdoutHasColours() } },
    });
  }
  return pino(options, coalescedStdout(instance));
}

let logger: pino.Logger | undefined;

/** Created on first use, so importing this module reads no environment. */
export function getLogger(): pino.Logger {
  logger ??= createLogger();
  return logger;
}
