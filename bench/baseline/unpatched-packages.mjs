/**
 * Preloaded into the baseline's server (`--import`, see bench/support/servers.ts):
 * every module that resolves to one of the packages the app patches at install
 * time (patches/: Remix's router, docs/decisions/0030-route-matching-cache.md;
 * Remix's server renderer, docs/decisions/0103-the-renderer-s-routes-once-per-build.md)
 * gets the same file of its unpatched twin (`<name>-unpatched`, the same
 * version, untouched) instead, so "bare Remix" keeps Remix's own code. Prints
 * one line the first time it redirects, which the benchmark waits for before
 * measuring.
 */
import Module, { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const folderOf = (/** @type {string} */ name) =>
  path.dirname(require.resolve(`${name}/package.json`)) + path.sep;
/** Each patched package's folder, and its twin's. */
const TWINS = ["@remix-run/router", "@remix-run/react", "react-router-dom"].map((name) => ({
  patched: folderOf(name),
  unpatched: folderOf(`${name}-unpatched`),
}));
let announced = false;

/**
 * The unpatched copy of `file` when it is a file of a patched package, else `file`.
 * @param {string} file
 */
function redirect(file) {
  const twin = TWINS.find(({ patched }) => file.startsWith(patched));
  if (!twin) return file;
  const target = twin.unpatched + file.slice(twin.patched.length);
  if (!announced) {
    announced = true;
    process.stderr.write(`[bench] baseline uses the unpatched packages: ${target}\n`);
  }
  return target;
}

if (typeof Module.registerHooks === "function") {
  // Node >= 22.15: one synchronous hook for require() and import alike.
  Module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const result = nextResolve(specifier, context);
      if (!result.url.startsWith("file:")) return result;
      const file = fileURLToPath(result.url);
      const target = redirect(file);
      return target === file ? result : { ...result, url: pathToFileURL(target).href };
    },
  });
} else {
  // Node 20: CommonJS resolution only, which is how Remix's packages load these.
  const loader = /** @type {{ _resolveFilename: (...args: unknown[]) => string }} */ (
    /** @type {unknown} */ (Module)
  );
  const resolveFilename = loader._resolveFilename;
  loader._resolveFilename = function (...args) {
    return redirect(resolveFilename.apply(this, args));
  };
}
