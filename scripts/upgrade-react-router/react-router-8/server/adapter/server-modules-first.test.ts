/**
 * The assumption of server-modules-first.ts, in fresh Node processes with the real SDK: started
 * with its runtime channel injection, `@sentry/node` rewrites Express's router and
 * `@remix-run/node-fetch-server` when they load after it starts, neither when the boot loaded them
 * first, and a database client loaded afterwards either way (its spans).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { packagesRewrittenBySdk, SDK_PROBE_LIMIT_MS } from "../../test-support/sdk-rewrites";
import { SERVER_MODULES } from "./server-modules-first";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MODULE = pathToFileURL(path.join(import.meta.dirname, "server-modules-first.ts")).href;

/** What the SDK rewrote of what the app's server imports, and of `pg`. */
function rewritten(first: boolean): Promise<string[]> {
  return packagesRewrittenBySdk(ROOT, {
    before: first ? `await (await import(${JSON.stringify(MODULE)})).loadServerModulesFirst();` : "",
    after: `
      for (const name of ${JSON.stringify(SERVER_MODULES)}) await import(name);
      (await import("express")).default();
      (await import("node:module")).createRequire(${JSON.stringify(ROOT + "/")})("pg");`,
  });
}

describe(
  "the SDK's runtime channel injection and the app server's packages",
  { timeout: 2 * SDK_PROBE_LIMIT_MS },
  () => {
    it("rewrites Express's router and node-fetch-server when they load after the SDK started", async () => {
      expect(await rewritten(false)).toEqual(
        expect.arrayContaining(["@remix-run/node-fetch-server", "router", "pg"]),
      );
    });

    it("rewrites neither when the boot loaded them first, and still rewrites a database client", async () => {
      const names = await rewritten(true);
      expect(names).toContain("pg");
      expect(names.filter((name) => !/^pg(-|$)/.test(name))).toEqual([]);
    });
  },
);
