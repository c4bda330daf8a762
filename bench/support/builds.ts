/**
 * Builds the benchmark needs, made with the tree's own build scripts, only when
 * missing or older than their sources (or always / never, on request).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./servers";

export type BuildMode = "auto" | "always" | "never";

export interface BuildSpec {
  /** The root's npm script that makes it. */
  script: string;
  /** Where the script's command runs instead of the root: the bare apps build in their own folder. */
  cwd?: string;
  /** Environment the script runs with (the generated route count of a route-count build). */
  env?: Record<string, string>;
  /** The build's server bundle: missing or older than a source means "build again". */
  marker: string;
  sources: string[];
}

const APP_SOURCES = [
  "app",
  "server",
  "e2e/fixtures",
  "vite.config.ts",
  "vite",
  "remix.config.js",
  "package.json",
  "package-lock.json",
  "patches",
];

const BASELINE_SOURCES = [
  ...APP_SOURCES,
  "bench/baseline/app",
  "bench/baseline/vite.config.ts",
  "bench/baseline/package.json",
];

/** Target E: the baseline's routes and root plus the documented Sentry setup. */
const DOCUMENTED_SOURCES = [
  ...BASELINE_SOURCES,
  "bench/documented/app",
  "bench/documented/vite.config.ts",
  "bench/documented/package.json",
];

/** The e2e build's configuration with the benchmark's fixtures only (e2e/fixtures/vite.config.ts). */
const BENCH_FIXTURES = { E2E_FIXTURES: "bench" };

export const BUILDS = {
  /** The default production build (`build/`): what ships. */
  production: { script: "build", marker: "build/server/index.js", sources: APP_SOURCES },
  /** The production build plus the pages the benchmark measures (`build-bench/`). */
  bench: {
    script: "build:e2e",
    env: BENCH_FIXTURES,
    marker: "build-bench/server/index.js",
    sources: APP_SOURCES,
  },
  /** The e2e build, every fixture route (`build-e2e/`): the pages the fault and attack goals load. */
  e2e: { script: "build:e2e", marker: "build-e2e/server/index.js", sources: APP_SOURCES },
  /** The bare Remix baseline (`bench/baseline/build/`); it re-exports some app and fixture routes. */
  baseline: {
    script: "build",
    cwd: "bench/baseline",
    marker: "bench/baseline/build/server/index.js",
    sources: BASELINE_SOURCES,
  },
} satisfies Record<string, BuildSpec>;

/**
 * The builds of the route-count dimension: the app's bench build and the
 * baseline, each with `routes` generated routes (`BENCH_GENERATED_ROUTES`,
 * remix.config.js), in directories of their own (ignored by git).
 */
export function routeCountBuilds(routes: number) {
  const env = { BENCH_GENERATED_ROUTES: String(routes) };
  const appEnv = { ...BENCH_FIXTURES, ...env };
  return {
    /** Directory of the app's build, relative to the root. */
    appDir: `build-bench-${routes}` as const,
    /** Directory of the baseline's build, relative to bench/baseline. */
    baselineDir: `build-routes-${routes}`,
    app: {
      script: "build:e2e",
      env: appEnv,
      marker: `build-bench-${routes}/server/index.js`,
      sources: APP_SOURCES,
    },
    baseline: {
      script: "build",
      cwd: "bench/baseline",
      env,
      marker: `bench/baseline/build-routes-${routes}/server/index.js`,
      sources: BASELINE_SOURCES,
    },
    /** Directory of target E's build, relative to the root. */
    documentedDir: `build-bench-documented-${routes}`,
    documented: {
      script: "build",
      cwd: "bench/documented",
      env,
      marker: `build-bench-documented-${routes}/server/index.js`,
      sources: DOCUMENTED_SOURCES,
    },
  } satisfies Record<string, BuildSpec | string>;
}

/** Newest modification time under `paths` (files, or directories walked recursively), in ms. */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (file: string) => {
    if (!existsSync(file)) return;
    const stat = statSync(file);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const file of paths) visit(path.join(ROOT, file));
  return newest;
}

/** Why `spec` must be built, or undefined when its output is up to date. */
export function staleReason(spec: BuildSpec): string | undefined {
  const marker = path.join(ROOT, spec.marker);
  if (!existsSync(marker)) return `${spec.marker} is missing`;
  if (newestMtime(spec.sources) > statSync(marker).mtimeMs) return `sources changed since ${spec.marker}`;
  return undefined;
}

/** `NAME=value ` for each variable the build script needs, as a shell would take them. */
const envText = (spec: BuildSpec) =>
  Object.entries(spec.env ?? {})
    .map(([name, value]) => `${name}=${value} `)
    .join("");

/** The command of the root's `script`, run in `cwd` (`remix vite:build`, or the framework's after an upgrade). */
function scriptCommand(script: string): string {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const command = pkg.scripts[script];
  if (!command) throw new Error(`build: package.json has no script ${script}`);
  return command;
}

/** The build's command line, as a shell would take it. */
const commandText = (spec: BuildSpec) =>
  spec.cwd
    ? `(cd ${spec.cwd} && ${envText(spec)}${scriptCommand(spec.script)})`
    : `${envText(spec)}npm run ${spec.script}`;

/** Makes sure `spec` is built; build output goes to stderr so that stdout stays the report. */
export function ensureBuild(spec: BuildSpec, mode: BuildMode, log: (line: string) => void): void {
  const reason = mode === "always" ? "a fresh build was asked for" : staleReason(spec);
  if (!reason) return log(`build: ${spec.marker} is up to date`);
  if (mode === "never") throw new Error(`build: ${reason}; run \`${commandText(spec)}\``);
  log(`build: ${commandText(spec)} (${reason})`);
  // In its own folder, the script's command finds the root's packages' commands as npm gives them.
  const PATH = [path.join(ROOT, "node_modules/.bin"), process.env.PATH].join(path.delimiter);
  const command = spec.cwd ? scriptCommand(spec.script) : `npm run ${spec.script}`;
  const result = spawnSync(command, {
    cwd: path.join(ROOT, spec.cwd ?? ""),
    env: { ...process.env, ...spec.env, PATH },
    shell: true,
    stdio: ["ignore", 2, 2],
  });
  if (result.status !== 0) throw new Error(`build: ${commandText(spec)} failed`);
}
