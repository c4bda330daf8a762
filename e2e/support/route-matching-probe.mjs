// Preloaded (`--import`, before the start script's own preload) into a test
// server by e2e/hostile-input/manifest-attack-work.spec.ts, never into
// production: each call of the framework's server-side route matching
// (`matchServerRoutes` of its server runtime, which its /__manifest handler
// calls once per path) appends one line to ROUTE_MATCHING_FILE: the number of
// segments of the path it matched. Its source is rewritten as it loads (Node's
// synchronous module hooks, CommonJS on Remix 2 and ES modules on React Router 8),
// since its own callers reach it by a binding no wrapper could replace.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const file = process.env.ROUTE_MATCHING_FILE;
if (!file) throw new Error("route-matching-probe.mjs: ROUTE_MATCHING_FILE is not set");

const MODULE = /\/server-runtime\/(dist\/)?routeMatching\.js$/;
const DECLARATION = "function matchServerRoutes(";
const RECORD = Symbol.for("route-matching-probe");

/** @param {unknown[]} args the call's arguments, of which the pathname is the only string */
const record = (args) => {
  const pathname = /** @type {string} */ (args.find((arg) => typeof arg === "string") ?? "");
  appendFileSync(file, `${pathname.split("/").filter(Boolean).length}\n`);
};
Object.defineProperty(globalThis, RECORD, { value: record });

registerHooks({
  load(url, context, nextLoad) {
    const result = nextLoad(url, context);
    if (!MODULE.test(url)) return result;
    const source = String(result.source);
    // An upgrade that renames the function must not leave a probe that sees nothing.
    if (!source.includes(DECLARATION))
      throw new Error(`route-matching-probe.mjs: ${url} has no ${DECLARATION}`);
    const counted =
      `function matchServerRoutes(...args) {\n` +
      `  globalThis[Symbol.for(${JSON.stringify(RECORD.description)})](args);\n` +
      `  return uncountedMatchServerRoutes(...args);\n}\n` +
      `function uncountedMatchServerRoutes(`;
    return { ...result, source: source.replace(DECLARATION, counted) };
  },
});
