/**
 * The assumption of serve-modules-first.ts, in fresh Node processes with the real SDK: started
 * with its runtime channel injection, `@sentry/node` rewrites what remix-serve's command requires
 * when it loads afterwards (Express, Remix's server runtime), and none of it when the boot loaded
 * those first; a database client loaded afterwards is rewritten either way (its spans).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";
import { packagesRewrittenBySdk, SDK_PROBE_LIMIT_MS } from "../../test-support/sdk-rewrites";

adviseOnFailure(ADAPTER_ADVICE("serve-modules-first.ts"));

const ROOT = path.resolve(import.meta.dirname, "../..");
const MODULE = pathToFileURL(path.join(import.meta.dirname, "serve-modules-first.ts")).href;
const cli = createRequire(createRequire(ROOT + "/").resolve("@remix-run/serve/package.json")).resolve(
  "./dist/cli.js",
);
/** Every package remix-serve's command requires, read from its code. */
const serveRequires = [...readFileSync(cli, "utf8").matchAll(/require\('([^']+)'\)/g)]
  .map((match) => match[1]!)
  .filter((name) => !name.startsWith("node:"));

/** What the SDK rewrote of the command's packages, `@remix-run/node` as the build imports it, and `pg`. */
function rewritten(first: boolean): Promise<string[]> {
  return packagesRewrittenBySdk(ROOT, {
    before: first ? `(await import(${JSON.stringify(MODULE)})).loadServeModulesFirst();` : "",
    after: `
      const fromServe = (await import("node:module")).createRequire(${JSON.stringify(cli)});
      for (const name of ${JSON.stringify(serveRequires)}) fromServe(name);
      await import("@remix-run/node");
      (await import("node:module")).createRequire(${JSON.stringify(ROOT + "/")})("pg");`,
  });
}

describe(
  "the SDK's runtime channel injection and remix-serve's packages",
  { timeout: 2 * SDK_PROBE_LIMIT_MS },
  () => {
    it("reads what remix-serve's command requires", () => {
      expect(serveRequires).toEqual(
        expect.arrayContaining(["express", "@remix-run/express", "@remix-run/node"]),
      );
    });

    it("rewrites Express and Remix's server runtime when they load after the SDK started", async () => {
      expect(await rewritten(false)).toEqual(
        expect.arrayContaining(["@remix-run/server-runtime", "express", "pg"]),
      );
    });

    it("rewrites none of them when the boot loaded them first, and still rewrites a database client", async () => {
      const names = await rewritten(true);
      expect(names).toContain("pg");
      expect(names.filter((name) => !/^pg(-|$)/.test(name))).toEqual([]);
    });
  },
);
