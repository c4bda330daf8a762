/**
 * The assumption of serve-modules-first.ts, in fresh Node processes with the real SDK: started
 * with its runtime channel injection, `@sentry/node` rewrites what remix-serve's command requires
 * when it loads afterwards (Express, Remix's server runtime), and none of it when the boot loaded
 * those first; a database client loaded afterwards is rewritten either way (its spans).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("serve-modules-first.ts"));

const ROOT = path.resolve(import.meta.dirname, "../..");
const cli = createRequire(createRequire(ROOT + "/").resolve("@remix-run/serve/package.json")).resolve(
  "./dist/cli.js",
);
/** Every package remix-serve's command requires, read from its code. */
const serveRequires = [...readFileSync(cli, "utf8").matchAll(/require\('([^']+)'\)/g)]
  .map((match) => match[1]!)
  .filter((name) => !name.startsWith("node:"));

/** Starts the SDK as the app does, then loads the command's packages and `pg`; what the SDK rewrote. */
function rewritten(first: boolean): string[] {
  const script = `
    import { createRequire } from "node:module";
    if (${first}) (await import(${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, "serve-modules-first.ts")).href)})).loadServeModulesFirst();
    const Sentry = await import("@sentry/node");
    Sentry.init({ dsn: "http://public@127.0.0.1:9/1", tracesSampleRate: 0, enableRuntimeChannelInjection: true });
    const fromServe = createRequire(${JSON.stringify(cli)});
    for (const name of ${JSON.stringify(serveRequires)}) fromServe(name);
    await import("@remix-run/node");
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

describe("the SDK's runtime channel injection and remix-serve's packages", () => {
  it("reads what remix-serve's command requires", () => {
    expect(serveRequires).toEqual(
      expect.arrayContaining(["express", "@remix-run/express", "@remix-run/node"]),
    );
  });

  it("rewrites Express and Remix's server runtime when they load after the SDK started", () => {
    expect(rewritten(false)).toEqual(expect.arrayContaining(["@remix-run/server-runtime", "express", "pg"]));
  });

  it("rewrites none of them when the boot loaded them first, and still rewrites a database client", () => {
    const names = rewritten(true);
    expect(names).toContain("pg");
    expect(names.filter((name) => !/^pg(-|$)/.test(name))).toEqual([]);
  });
});
