/**
 * Runs before remix-serve loads the app (see instrument.server.mjs): checks
 * the environment, starts Sentry so its instrumentation can patch Remix
 * before Remix is imported, and installs the shutdown handler.
 */
import { parseEnv } from "~/env.server";
import { initServerSentry } from "./sentry.server";
import { installGracefulShutdown } from "./shutdown.server";

function validatedEnv() {
  try {
    return parseEnv(process.env);
  } catch (error) {
    // One line that names the variable, and no stack: this is a configuration mistake.
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

const env = validatedEnv();
initServerSentry(env);
installGracefulShutdown();
