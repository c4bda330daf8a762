/**
 * A quiet build: `npm run build` prints no warning, so that a new one is
 * noticed. The few the build expects are silenced here, each with why it is
 * harmless; in a test run (scripts/run-tests.mjs marks its processes with
 * SCAFFOLD_TEST_RUN) any other warning fails the build.
 */
import { createLogger, type Logger, type Plugin, type Rollup } from "vite";

/** The Rollup warnings the build expects. */
export function expectedRollupWarning(log: Rollup.RollupLog): boolean {
  // zod's own comments mention `@__PURE__` in prose where Rollup cannot read
  // an annotation; Rollup drops the comment and the code is unchanged.
  if (log.code === "INVALID_ANNOTATION" && /[/\\]node_modules[/\\]zod[/\\]/.test(log.id ?? "")) return true;
  // The framework emits a browser module for every route; a resource route
  // (`/healthz`: a loader only) has nothing for the browser, so it is empty.
  if (log.code === "EMPTY_BUNDLE") return true;
  return false;
}

/** The warnings of the frameworks' own plugins that the build expects. */
function expectedWarning(message: string): boolean {
  // Remix's and React Router's plugins warn of any source map in a production
  // build as if it were the browser's ("publicly visible"): only the server's
  // are built (vite.config.ts), and the browser's only to upload them, hidden.
  return message.includes("Source maps are enabled in production");
}

/** Vite's logger without the expected warnings; any other throws when `strict` (the build then fails, naming it). */
export function buildLogger(strict: boolean, logger: Logger = createLogger()): Logger {
  const warning =
    (print: Logger["warn"]): Logger["warn"] =>
    (message, options) => {
      if (expectedWarning(message)) return;
      if (strict) {
        throw new Error(
          `A new build warning (server/build-warnings.ts: fix it, or silence it there saying why):\n${message}`,
        );
      }
      print(message, options);
    };
  return { ...logger, warn: warning(logger.warn), warnOnce: warning(logger.warnOnce) };
}

/** The plugin: the expected Rollup warnings silenced, and the logger of a test run strict. */
export function quietBuild({ strict = Boolean(process.env.SCAFFOLD_TEST_RUN) } = {}): Plugin {
  return {
    name: "quiet-build",
    apply: "build",
    config: () => ({ customLogger: buildLogger(strict) }),
    // Per environment: React Router 8 builds client and server in one run, each
    // with its own options. `onLog`, not `onwarn`: React Router sets an `onwarn`
    // of its own, which Vite calls after this.
    configEnvironment: () => ({
      build: {
        rollupOptions: {
          onLog(level, log, handle) {
            if (level === "warn" && expectedRollupWarning(log)) return;
            handle(level, log);
          },
        },
      },
    }),
  };
}
