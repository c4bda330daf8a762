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
  // The server's source maps (vite.config.ts) pass through Vite's CSS plugin,
  // which maps nothing; no stack ever points into a stylesheet.
  if (log.code === "SOURCEMAP_BROKEN" && log.plugin === "vite:css-post") return true;
  return false;
}

/** Vite's logger, whose warnings throw when `strict` (the build then fails, naming the warning). */
export function buildLogger(strict: boolean, logger: Logger = createLogger()): Logger {
  if (!strict) return logger;
  const fail = (message: string) => {
    throw new Error(
      `A new build warning (server/build-warnings.ts: fix it, or silence it there saying why):\n${message}`,
    );
  };
  return { ...logger, warn: fail, warnOnce: fail };
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
