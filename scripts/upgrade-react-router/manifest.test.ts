import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADDED_DEPENDENCIES, ADDED_DEV_DEPENDENCIES, upgradeManifest, type PackageJson } from "./manifest";

const pkg = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8"),
) as PackageJson;
const upgraded = upgradeManifest(pkg, { withoutPatches: true });
const names = (deps: Record<string, string>) => Object.keys(deps);

describe("upgradeManifest, on this project's package.json", () => {
  it("drops every Remix package, the browser SDK for Remix and the router's pins", () => {
    for (const deps of [upgraded.dependencies, upgraded.devDependencies])
      expect(
        names(deps).filter((name) => name.startsWith("@remix-run/") || name === "@sentry/remix"),
      ).toEqual([]);
    expect(Object.keys(upgraded.overrides ?? {})).toEqual(["rollup"]);
  });

  it("keeps everything else as it was", () => {
    expect(upgraded.dependencies["@sentry/node"]).toBe(pkg.dependencies["@sentry/node"]);
    expect(upgraded.devDependencies.vite).toBe(pkg.devDependencies.vite);
    expect(upgraded.engines).toEqual(pkg.engines);
    expect(upgraded.allowScripts).toEqual(pkg.allowScripts);
  });

  it("builds with react-router, generates route types before tsc, and drops its own scripts", () => {
    expect(upgraded.scripts.build).toBe("react-router build");
    expect(upgraded.scripts["build:e2e"]).toBe("react-router build . --config e2e/fixtures/vite.config.ts");
    expect(upgraded.scripts.typecheck).toBe(`react-router typegen && ${pkg.scripts.typecheck}`);
    expect(upgraded.scripts["upgrade:react-router"]).toBeUndefined();
    expect(upgraded.scripts["test:upgrade"]).toBeUndefined();
    expect(upgraded.scripts["build:documented"]).toBeUndefined();
    expect(JSON.stringify(upgraded.scripts)).not.toMatch(/remix vite:/);
  });

  it("drops patch-package and its postinstall only when no patch is left", () => {
    expect(upgraded.scripts.postinstall).toBeUndefined();
    expect(upgraded.dependencies["patch-package"]).toBeUndefined();
    const withPatches = upgradeManifest(pkg, { withoutPatches: false });
    expect(withPatches.scripts.postinstall).toBe(pkg.scripts.postinstall);
  });

  it("adds the React Router family at one exact version, and the browser SDK at @sentry/remix's", () => {
    const versions = [...ADDED_DEPENDENCIES, ...ADDED_DEV_DEPENDENCIES]
      .filter((spec) => spec.includes("react-router"))
      .map((spec) => spec.split("@").at(-1));
    expect(new Set(versions).size).toBe(1);
    expect(ADDED_DEPENDENCIES).toContain(`@sentry/react@${pkg.dependencies["@sentry/remix"]}`);
  });
});
