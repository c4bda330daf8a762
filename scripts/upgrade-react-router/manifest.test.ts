import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import {
  ADDED_DEPENDENCIES,
  ADDED_DEV_DEPENDENCIES,
  ADDED_DEV_RANGES,
  REACT_ROUTER_TOOLS_VERSION,
  REACT_ROUTER_VERSION,
  TYPESCRIPT_RANGE,
  upgradeManifest,
  type PackageJson,
} from "./manifest";

const pkg = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8"),
) as PackageJson;
const upgraded = upgradeManifest(pkg);
const peersOf = (name: string) =>
  (
    JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, `../../node_modules/${name}/package.json`), "utf8"),
    ) as {
      peerDependencies: Record<string, string>;
    }
  ).peerDependencies;
const vitestPeers = peersOf("vitest");
const typescriptEslintPeers = peersOf("typescript-eslint");
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
    expect(upgraded.scripts["build:e2e"]).toBe("react-router build --config e2e/fixtures/vite.config.ts");
    expect(upgraded.scripts.typecheck).toBe(`react-router typegen && ${pkg.scripts.typecheck}`);
    expect(upgraded.scripts["upgrade:react-router"]).toBeUndefined();
    expect(upgraded.scripts["test:upgrade"]).toBeUndefined();
    expect(JSON.stringify(upgraded.scripts)).not.toMatch(/remix vite:/);
  });

  it("leaves the upgraded tree no more npm scripts than a newcomer reads at a glance (20)", () => {
    expect(Object.keys(upgraded.scripts).length).toBeLessThanOrEqual(20);
  });

  it("starts the app's own server, not react-router-serve", () => {
    expect(upgraded.scripts.start).toBe("NODE_ENV=production node ./server.mjs ./build/server/index.js");
    expect(upgraded.scripts.dev).toBe(pkg.scripts.dev);
  });

  it("drops patch-package and its postinstall: nothing is patched on React Router 8 (docs/decisions/0071)", () => {
    expect(pkg.scripts.postinstall).toMatch(/^patch-package --error-on-fail\b/);
    expect(upgraded.scripts.postinstall).toBeUndefined();
    expect(upgraded.dependencies["patch-package"]).toBeUndefined();
    expect(upgraded.devDependencies["patch-package"]).toBeUndefined();
  });

  it("adds the React Router packages at the versions they require of each other, React 19, Vite 8, TypeScript 6.0 and the browser SDK at the server's", () => {
    const added = [...ADDED_DEPENDENCIES, ...ADDED_DEV_DEPENDENCIES];
    // The tools take ^8.4.0; `@react-router/node` would require exactly its own version of `react-router`.
    expect(ADDED_DEPENDENCIES).toContain(`react-router@${REACT_ROUTER_VERSION}`);
    expect(ADDED_DEV_DEPENDENCIES).toEqual(
      expect.arrayContaining([
        `@react-router/dev@${REACT_ROUTER_TOOLS_VERSION}`,
        `@react-router/fs-routes@${REACT_ROUTER_TOOLS_VERSION}`,
      ]),
    );
    // No copy of react-router under another name, and no package that pins an older react-router exactly.
    expect(added.filter((spec) => /unpatched|@react-router\/(serve|express|node)@/.test(spec))).toEqual([]);
    // React Router 8 needs React >= 19.2.7 and Vite 7 or 8; Vitest 5 takes Vite 8.
    expect(added).toEqual(expect.arrayContaining(["react@19.3.1", "react-dom@19.3.1", "vite@8.4.0"]));
    expect(semver.satisfies("8.4.0", vitestPeers.vite!)).toBe(true);
    // Every TypeScript the range admits is one typescript-eslint accepts, and it is past Remix 2's 5.x.
    expect(ADDED_DEV_RANGES).toContain(`typescript@${TYPESCRIPT_RANGE}`);
    expect(semver.subset(TYPESCRIPT_RANGE, typescriptEslintPeers.typescript!)).toBe(true);
    expect(semver.minVersion(TYPESCRIPT_RANGE)!.major).toBe(6);
    expect(ADDED_DEV_RANGES).toEqual(
      expect.arrayContaining(["@types/react@^19.3.0", "@types/react-dom@^19.3.0"]),
    );
    // Sentry's 11 line in the browser too, at the server's @sentry/node version; bundled, so a
    // development dependency (the production install holds the server's SDK only).
    expect(ADDED_DEV_DEPENDENCIES).toContain(`@sentry/react@${pkg.dependencies["@sentry/node"]}`);
  });
});

describe("the overlay the upgrade copies (react-router-8/)", () => {
  it("carries no patch of a package", () => {
    expect(existsSync(path.resolve(import.meta.dirname, "react-router-8/patches"))).toBe(false);
  });
});
