/**
 * Preloaded into the baseline's server (`--import`, see bench/support/servers.ts):
 * every module that resolves to the app's `@remix-run/router` (patched at
 * install time, docs/decisions/0030-route-matching-cache.md) gets the same
 * file of `@remix-run/router-unpatched` (the same version, untouched) instead,
 * so "bare Remix" keeps Remix's own route matching. Prints one line the first
 * time it redirects, which the benchmark waits for before measuring.
 */
import Module, { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const patched = path.dirname(require.resolve("@remix-run/router/package.json")) + path.sep;
const unpatched = path.dirname(require.resolve("@remix-run/router-unpatched/package.json")) + path.sep;
let announced = false;

/**
 * The unpatched copy of `file` when it is a file of the patched router, else `file`.
 * @param {string} file
 */
function redirect(file) {
  if (!file.startsWith(patched)) return file;
  const target = unpatched + file.slice(patched.length);
  if (!announced) {
    announced = true;
    process.stderr.write(`[bench] baseline uses the unpatched router: ${target}\n`);
  }
  return target;
}

if (typeof Module.registerHooks === "function") {
  // Node >= 22.15: one synchronous hook for require() and import alike.
  const patchedUrl = pathToFileURL(patched).href;
  Module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const result = nextResolve(specifier, context);
      if (!result.url.startsWith(patchedUrl)) return result;
      return { ...result, url: pathToFileURL(redirect(fileURLToPath(result.url))).href };
    },
  });
} else {
  // Node 20: CommonJS resolution only, which is how Remix's packages load the router.
  const loader = /** @type {{ _resolveFilename: (...args: unknown[]) => string }} */ (
    /** @type {unknown} */ (Module)
  );
  const resolveFilename = loader._resolveFilename;
  loader._resolveFilename = function (...args) {
    return redirect(resolveFilename.apply(this, args));
  };
}
