/**
 * The patch of @remix-run/router (patches/@remix-run+router+<version>.patch,
 * docs/decisions/0030-route-matching-cache.md) is made for one exact version:
 * these checks fail when an upgrade changes the installed version, leaves a
 * copy unpatched, or lets a second copy into node_modules, so the patch is
 * looked at again instead of silently not applying (or applying to code it
 * was not reviewed against).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adviseOnFailure, PATCH_ADVICE } from "../test-support/guard-advice";

adviseOnFailure(PATCH_ADVICE);

const ROOT = path.resolve(import.meta.dirname, "..");
const require = createRequire(path.join(ROOT, "package.json"));
const MARKER = "[scaffold patch begin]";

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;
const installed = (name: string) =>
  readJson<{ version: string }>(require.resolve(`${name}/package.json`)).version;

/** The versions the patch files in patches/ were made for, by package. */
function patchedVersions(): Map<string, string> {
  const versions = new Map<string, string>();
  for (const file of readdirSync(path.join(ROOT, "patches"))) {
    const match = /^(.+)\+(\d+\.\d+\.\d+[^+]*)\.patch$/.exec(file);
    if (match) versions.set(match[1]!.replace("+", "/"), match[2]!);
  }
  return versions;
}

describe("the @remix-run/router patch", () => {
  const version = patchedVersions().get("@remix-run/router");

  it("is made for the installed version", () => {
    expect(version, "patches/@remix-run+router+<version>.patch").toBeDefined();
    expect(
      installed("@remix-run/router"),
      "@remix-run/router changed version: review the patch against the new code " +
        "(docs/decisions/0030-route-matching-cache.md, 'When to revisit'), then recreate it with " +
        "`npx patch-package @remix-run/router` and update @remix-run/router-unpatched to the same version",
    ).toBe(version);
  });

  it("has an unpatched twin of the same version for the comparisons", () => {
    const pkg = readJson<{ devDependencies: Record<string, string> }>(path.join(ROOT, "package.json"));
    expect(pkg.devDependencies["@remix-run/router-unpatched"]).toBe(`npm:@remix-run/router@${version}`);
    expect(installed("@remix-run/router-unpatched")).toBe(version);
  });

  it("is applied to every file that server and browser builds load, and only there", () => {
    const dir = path.dirname(require.resolve("@remix-run/router/package.json"));
    const pkg = readJson<{ main: string; module: string }>(path.join(dir, "package.json"));
    // main: what Node loads (server-runtime, react-router's UMD build); module: what Vite bundles.
    for (const file of [pkg.main, pkg.module]) {
      expect(readFileSync(path.join(dir, file), "utf8"), file).toContain(MARKER);
    }
    const twin = path.dirname(require.resolve("@remix-run/router-unpatched/package.json"));
    for (const file of [pkg.main, pkg.module]) {
      expect(readFileSync(path.join(twin, file), "utf8"), `unpatched ${file}`).not.toContain(MARKER);
    }
  });

  it("is the only copy: every package that uses the router resolves the patched one", () => {
    const lock = readJson<{ packages: Record<string, unknown> }>(path.join(ROOT, "package-lock.json"));
    const copies = Object.keys(lock.packages).filter((key) => key.endsWith("node_modules/@remix-run/router"));
    expect(copies, "a second copy of @remix-run/router: dedupe it or patch it too").toEqual([
      "node_modules/@remix-run/router",
    ]);
    const patchedMain = require.resolve("@remix-run/router");
    for (const user of [
      "@remix-run/server-runtime",
      "@remix-run/react",
      "react-router",
      "react-router-dom",
      "@sentry/remix",
    ]) {
      const from = createRequire(path.join(ROOT, "node_modules", user, "package.json"));
      expect(from.resolve("@remix-run/router"), user).toBe(patchedMain);
    }
  });
});
