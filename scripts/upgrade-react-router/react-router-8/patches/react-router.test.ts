/**
 * The patch of react-router (patches/react-router+<version>.patch,
 * docs/decisions/0068-react-router-8-route-matching-index.md) is made for one
 * exact version: these checks fail when an upgrade changes the installed
 * version, leaves a build unpatched, or lets a second copy into node_modules,
 * so the patch is ported again instead of silently not applying (or applying
 * to code it was not reviewed against).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const MARKER = "[scaffold patch begin]";
/** The files the patch changes: the matcher of both builds (the exports' `development` condition and the default). */
const PATCHED_FILES = ["dist/production/lib/router/matcher.js", "dist/development/lib/router/matcher.js"];

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;
const packageDir = (name: string, from = ROOT) =>
  path.dirname(createRequire(path.join(from, "package.json")).resolve(`${name}/package.json`));
const installed = (name: string) =>
  readJson<{ version: string }>(path.join(packageDir(name), "package.json")).version;

/** The version the patch file in patches/ was made for. */
function patchedVersion(): string | undefined {
  const names = readdirSync(path.join(ROOT, "patches"));
  return names.map((name) => /^react-router\+(\d+\.\d+\.\d+[^+]*)\.patch$/.exec(name)?.[1]).find(Boolean);
}

describe("the react-router patch", () => {
  const version = patchedVersion();

  it("is made for the installed version", () => {
    expect(version, "patches/react-router+<version>.patch").toBeDefined();
    expect(
      installed("react-router"),
      "react-router changed version: port the patch to the new code (docs/decisions/0068-react-router-8-" +
        "route-matching-index.md, 'When to revisit'): edit node_modules/react-router's matcher in both builds, " +
        "`npx patch-package react-router`, and move react-router-unpatched to the same version",
    ).toBe(version);
  });

  it("has an unpatched twin of the same version for the comparisons", () => {
    const pkg = readJson<{ devDependencies: Record<string, string> }>(path.join(ROOT, "package.json"));
    expect(pkg.devDependencies["react-router-unpatched"]).toBe(`npm:react-router@${version}`);
    expect(installed("react-router-unpatched")).toBe(version);
  });

  it("is applied to both builds' matcher, and not to the twin", () => {
    for (const file of PATCHED_FILES) {
      expect(readFileSync(path.join(packageDir("react-router"), file), "utf8"), file).toContain(MARKER);
      const twin = readFileSync(path.join(packageDir("react-router-unpatched"), file), "utf8");
      expect(twin, `unpatched ${file}`).not.toContain(MARKER);
    }
  });

  it("is the only copy: every package that uses react-router resolves the patched one", () => {
    const lock = readJson<{ packages: Record<string, unknown> }>(path.join(ROOT, "package-lock.json"));
    const copies = Object.keys(lock.packages).filter((key) => key.endsWith("node_modules/react-router"));
    expect(copies, "a second copy of react-router: dedupe it or patch it too").toEqual([
      "node_modules/react-router",
    ]);
    for (const user of ["@react-router/node", "@react-router/dev", "@react-router/serve"]) {
      expect(packageDir("react-router", packageDir(user)), user).toBe(packageDir("react-router"));
    }
  });
});
