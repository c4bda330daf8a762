/**
 * The package manifest of the upgraded tree. The React Router family is
 * pinned to one version: `@react-router/serve` requires exactly the
 * `react-router` of its own version, and `/dev`, `/serve`, `/express` and
 * `/fs-routes` stop at 7.18.4 while `react-router` went on to 7.18.5. The
 * browser SDK is `@sentry/react` at the version `@sentry/remix` had
 * (`@sentry/react-router` would bring `@sentry/node` 10 beside the server's 11,
 * for server parts the app does not use: docs/decisions/0061).
 */
export const REACT_ROUTER_VERSION = "7.18.4";
export const SENTRY_BROWSER_VERSION = "10.75.2";

export const ADDED_DEPENDENCIES = [
  `react-router@${REACT_ROUTER_VERSION}`,
  `@react-router/node@${REACT_ROUTER_VERSION}`,
  `@react-router/serve@${REACT_ROUTER_VERSION}`,
  `@sentry/react@${SENTRY_BROWSER_VERSION}`,
];
export const ADDED_DEV_DEPENDENCIES = [
  `@react-router/dev@${REACT_ROUTER_VERSION}`,
  `@react-router/fs-routes@${REACT_ROUTER_VERSION}`,
];

/** Packages that only Remix 2 needs: its own, the patched router's twin, the browser SDK for Remix. */
const REMOVED = /^@remix-run\/|^@sentry\/remix$/;
/** Pins of Remix 2's router line (SECURITY.md); React Router 7 carries those fixes itself. */
const REMOVED_OVERRIDES = ["@remix-run/router", "react-router", "react-router-dom"];
/** The upgrade's own scripts, and the build of the benchmark's documented @sentry/remix setup (removed with it). */
const UPGRADE_SCRIPTS = ["upgrade:react-router", "test:upgrade", "build:documented"];

export interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides?: Record<string, string>;
  [key: string]: unknown;
}

/** `remix vite:build` → `react-router build`, `remix-serve` → `react-router-serve`; typegen before tsc. */
function upgradeScript(name: string, command: string): string {
  let out = command
    // With --config in another folder, React Router takes that folder as the project's root.
    .replace(/\bremix vite:build --config\b/g, "react-router build . --config")
    .replace(/\bremix vite:build\b/g, "react-router build")
    .replace(/\bremix vite:dev\b/g, "react-router dev");
  if (name === "typecheck") out = `react-router typegen && ${out}`;
  return out;
}

/**
 * The manifest without Remix 2 (the new packages are added by `npm install`,
 * which writes them into it). `withoutPatches`: no patch is left in patches/,
 * so patch-package and its postinstall go too.
 */
export function upgradeManifest(
  pkg: PackageJson,
  { withoutPatches }: { withoutPatches: boolean },
): PackageJson {
  const keep = (deps: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(deps).filter(
        ([name]) => !REMOVED.test(name) && !(withoutPatches && name === "patch-package"),
      ),
    );
  const scripts = Object.fromEntries(
    Object.entries(pkg.scripts)
      .filter(([name]) => !UPGRADE_SCRIPTS.includes(name) && !(withoutPatches && name === "postinstall"))
      .map(([name, command]) => [name, upgradeScript(name, command)]),
  );
  const overrides = Object.fromEntries(
    Object.entries(pkg.overrides ?? {}).filter(([name]) => !REMOVED_OVERRIDES.includes(name)),
  );
  return {
    ...pkg,
    scripts,
    dependencies: keep(pkg.dependencies),
    devDependencies: keep(pkg.devDependencies),
    overrides,
  };
}
