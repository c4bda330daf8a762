/**
 * The assumption of server-modules-first.ts, in fresh Node processes with the real SDK: started
 * with its runtime channel injection, `@sentry/node` rewrites Express's router and
 * `@remix-run/node-fetch-server` when they load after it starts, neither when the boot loaded them
 * first, and a database client loaded afterwards either way (its spans).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { SERVER_MODULES } from "./server-modules-first";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MODULE = pathToFileURL(path.join(import.meta.dirname, "server-modules-first.ts")).href;

/** Starts the SDK as the app does, then imports what the app's server imports and `pg`; what the SDK rewrote. */
function rewritten(first: boolean): string[] {
  const script = `
    import { createRequire } from "node:module";
    if (${first}) await (await import(${JSON.stringify(MODULE)})).loadServerModulesFirst();
    const Sentry = await import("@sentry/node");
    Sentry.init({ dsn: "http://public@127.0.0.1:9/1", tracesSampleRate: 0, enableRuntimeChannelInjection: true });
    for (const name of ${JSON.stringify(SERVER_MODULES)}) await import(name);
    (await import("express")).default();
    createRequire(${JSON.stringify(ROOT + "/")})("pg");
    console.log(JSON.stringify([...new Set(globalThis.__SENTRY_ORCHESTRION__?.runtime ?? [])].sort()));`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as string[];
}

describe("the SDK's runtime channel injection and the app server's packages", () => {
  it("rewrites Express's router and node-fetch-server when they load after the SDK started", () => {
    expect(rewritten(false)).toEqual(
      expect.arrayContaining(["@remix-run/node-fetch-server", "router", "pg"]),
    );
  });

  it("rewrites neither when the boot loaded them first, and still rewrites a database client", () => {
    const names = rewritten(true);
    expect(names).toContain("pg");
    expect(names.filter((name) => !/^pg(-|$)/.test(name))).toEqual([]);
  });
});
