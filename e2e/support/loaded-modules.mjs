// Preloaded (`--import`, before the start script's own preload) into a test
// server by e2e/sentry/not-loaded.spec.ts, never into production: records the
// URL of every module the process resolves, ES modules and CommonJS alike
// (Node's synchronous module hooks), whether Sentry's global carrier exists and
// the SDK versions registered in it, and writes them as JSON to
// LOADED_MODULES_FILE when the process exits.
import { writeFileSync } from "node:fs";
import { registerHooks } from "node:module";

const file = process.env.LOADED_MODULES_FILE;
if (!file) throw new Error("loaded-modules.mjs: LOADED_MODULES_FILE is not set");
const modules = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    modules.add(result.url);
    return result;
  },
});
process.on("exit", () => {
  const carrier = /** @type {Record<string, unknown> | undefined} */ (Reflect.get(globalThis, "__SENTRY__"));
  const sentryVersions = Object.keys(carrier ?? {}).filter((key) => /^\d/.test(key));
  writeFileSync(file, JSON.stringify({ modules: [...modules], sentryCarrier: !!carrier, sentryVersions }));
});
