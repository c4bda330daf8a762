/** Expected build warnings, each with why, so that a new one is noticed (in a test run it fails the build). */
import { createLogger, type Logger, type Plugin, type Rollup } from "vite";

export function expectedRollupWarning(log: Rollup.RollupLog): boolean {
  // zod's comments mention `@__PURE__` in prose; Rollup drops them and the code is unchanged.
  if (log.code === "INVALID_ANNOTATION" && /[/\\]node_modules[/\\]zod[/\\]/.test(log.id ?? "")) return true;
  // A resource route (`/healthz`) still gets a browser module, an empty one.
  if (log.code === "EMPTY_BUNDLE") return true;
  // Rolldown's slow-hook report reads the machine's speed that day, not the build's.
  if (log.code === "PLUGIN_TIMINGS") return true;
  return false;
}

function expectedWarning(message: string): boolean {
  // The framework's plugin warns of any source map as if public: the browser's are built hidden, to upload.
  return message.includes("Source maps are enabled in production");
}

export function buildLogger(strict: boolean, logger: Logger = createLogger()): Logger {
  const warning =
    (print: Logger["warn"]): Logger["warn"] =>
    (message, options) => {
      if (expectedWarning(message)) return;
      if (strict) {
        throw new Error(
          `A new build warning (vite/build-warnings.ts: fix it, or silence it there saying why):\n${message}`,
        );
      }
      print(message, options);
    };
  return { ...logger, warn: warning(logger.warn), warnOnce: warning(logger.warnOnce) };
}

export function quietBuild({ strict = Boolean(process.env.SCAFFOLD_TEST_RUN) } = {}): Plugin {
  return {
    name: "quiet-build",
    apply: "build",
    config: () => ({ customLogger: buildLogger(strict) }),
    // Per environment: React Router 8 builds both in one run. `onLog`: its own `onwarn` comes after.
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
