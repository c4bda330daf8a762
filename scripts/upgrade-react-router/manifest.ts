/**
 * The package manifest of the upgraded tree (React Router 8, docs/decisions/0065).
 * `react-router` at its newest release: no package the app installs pins it
 * exactly (React Router's `@react-router/node` and `/express` require exactly
 * their own version, and trail its releases, so the app uses neither: Node's
 * `Readable.toWeb` in `app/entry.server.tsx`, docs/decisions/0085).
 * `/dev` and `/fs-routes` take any 8.x from their own (they publish less
 * often: the latest of each is installed; `/dev` brings its own
 * `@react-router/node`, which npm lists as invalid beside the newer
 * `react-router`: docs/updating-dependencies.md on the upgraded tree). No
 * package of the framework is patched (docs/decisions/0071), so the next React
 * Router release is `npm install` of these packages and nothing else
 * (docs/upgrading-to-react-router-8.md). React Router 8 needs React >= 19.2.7
 * and Vite 7 or 8: Vite 8, which Vitest 5 accepts too. TypeScript 6.0, the newest
 * line typescript-eslint accepts (`< 6.1`), where Remix 2 holds 5.x. The browser SDK is
 * `@sentry/react` at the server's `@sentry/node` version (`@sentry/react-router`
 * stops at 10.x on the registry and would bring `@sentry/node` 10 beside the
 * server's 11). The app runs its own server (docs/decisions/0067): Express 5
 * and compression, as `react-router-serve` 8.4.0 locks them; the benchmark's
 * bare baseline is served the same way (react-router-8/bench/baseline/server.mjs). The
 * app's server writes through `@remix-run/node-fetch-server`, the conversion React
 * Router's own Node packages are built on, at the version they resolve to (one copy;
 * docs/decisions/0081).
 */
export const REACT_ROUTER_VERSION = "8.5.3";
/** `@react-router/dev` and `/fs-routes`: their latest, which requires `react-router` ^8.4.0. */
export const REACT_ROUTER_TOOLS_VERSION = "8.4.0";
export const REACT_VERSION = "19.3.1";
export const REACT_TYPES_VERSION = "^19.3.0";
export const VITE_VERSION = "8.4.0";
/** A range within typescript-eslint's peer range, so its patches still come. */
export const TYPESCRIPT_RANGE = "~6.0.3";
export const SENTRY_BROWSER_VERSION = "11.12.0";
export const EXPRESS_VERSION = "5.3.0";
export const COMPRESSION_VERSION = "1.8.2";
/** Within `@react-router/dev` 8.4.0's `^0.14.1`. */
export const NODE_FETCH_SERVER_VERSION = "0.14.2";

export const ADDED_DEPENDENCIES = [
  `react-router@${REACT_ROUTER_VERSION}`,
  `@remix-run/node-fetch-server@${NODE_FETCH_SERVER_VERSION}`,
  `express@${EXPRESS_VERSION}`,
  `compression@${COMPRESSION_VERSION}`,
  `react@${REACT_VERSION}`,
  `react-dom@${REACT_VERSION}`,
];
/** What only the build needs; the browser SDK is bundled, so the image has one Sentry SDK, the server's. */
export const ADDED_DEV_DEPENDENCIES = [
  `@sentry/react@${SENTRY_BROWSER_VERSION}`,
  `@react-router/dev@${REACT_ROUTER_TOOLS_VERSION}`,
  `@react-router/fs-routes@${REACT_ROUTER_TOOLS_VERSION}`,
  `vite@${VITE_VERSION}`,
];
/** Ranges, not exact (`npm install` without --save-exact): the types follow React's minor. */
export const ADDED_DEV_RANGES = [
  `@types/react@${REACT_TYPES_VERSION}`,
  `@types/react-dom@${REACT_TYPES_VERSION}`,
  "@types/express@^5.0.6",
  "@types/compression@^1.8.1",
  `typescript@${TYPESCRIPT_RANGE}`,
];

/** `npm start` on React Router 8: the app's own server (server.mjs), given the server build as remix-serve was. */
export const START_SCRIPT = "NODE_ENV=production node ./server.mjs ./build/server/index.js";

/**
 * Packages that only Remix 2 needs: its own, the twins of the packages patched on Remix 2, the
 * browser SDK for Remix, and patch-package, which applies those patches (nothing is patched on
 * React Router 8).
 */
const REMOVED = /^@remix-run\/|^react-router-dom-unpatched$|^@sentry\/remix$|^patch-package$/;
/** Pins of Remix 2's router line (SECURITY.md); React Router 8 carries those fixes itself. */
const REMOVED_OVERRIDES = ["@remix-run/router", "react-router", "react-router-dom"];
/** The upgrade's own scripts. */
export const UPGRADE_SCRIPTS = ["upgrade:react-router", "test:upgrade"];
/** Scripts of the Remix tree that only its patch needs: `postinstall` applies it. */
const PATCH_SCRIPTS = ["postinstall"];

export interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides?: Record<string, string>;
  [key: string]: unknown;
}

/** `remix vite:build` → `react-router build`; `start` runs the app's own server; typegen before tsc. */
function upgradeScript(name: string, command: string): string {
  if (name === "start") return START_SCRIPT;
  let out = command
    .replace(/\bremix vite:build\b/g, "react-router build")
    .replace(/\bremix vite:dev\b/g, "react-router dev");
  if (name === "typecheck") out = `react-router typegen && ${out}`;
  return out;
}

/**
 * The manifest without Remix 2 (the new packages are added by `npm install`,
 * which writes them into it), and without patch-package and its postinstall.
 */
export function upgradeManifest(pkg: PackageJson): PackageJson {
  const keep = (deps: Record<string, string>) =>
    Object.fromEntries(Object.entries(deps).filter(([name]) => !REMOVED.test(name)));
  const scripts = Object.fromEntries(
    Object.entries(pkg.scripts)
      .filter(([name]) => !UPGRADE_SCRIPTS.includes(name) && !PATCH_SCRIPTS.includes(name))
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
