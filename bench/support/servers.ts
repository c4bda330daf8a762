/**
 * The servers the benchmark and the client JS budget measure: the bare
 * baseline (the framework's own server on bench/baseline/build) and the app through its real
 * start script (test-support/app-server.ts). Every server started here is
 * registered so that one call, or the process exiting, stops them all.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { baseEnv, startApp, type StartOptions } from "../../test-support/app-server";
import { freePort } from "../../test-support/free-port";
import { BASELINE_SERVE } from "../baseline/serve";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const BASELINE_DIR = path.join(ROOT, "bench/baseline");

/** A running server under test. */
export interface BenchServer {
  readonly name: string;
  readonly url: string;
  /** The node process that serves (its CPU time and memory are what is measured). */
  readonly pid: number;
  /** The last part of what the server printed, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();

// Last resort: whatever way this process ends, no server outlives it.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

function register(name: string, child: ChildProcess, url: string, output: () => string): BenchServer {
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  void exited.then(() => running.delete(child));
  return {
    name,
    url,
    pid: child.pid!,
    output,
    async stop(graceMs = 5_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Stops every server started through this module. */
export async function stopAll(graceMs?: number): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), graceMs ?? 5_000).unref();
        }),
    ),
  );
}

/** Where target E, the documented `@sentry/remix` setup, lives (bench/documented/vite.config.ts). */
export const DOCUMENTED_DIR = path.join(ROOT, "bench/documented");

/**
 * Target E exists on Remix 2 only: the React Router 8 upgrade removes
 * bench/documented with `@sentry/remix`, the SDK it documents.
 */
export const HAS_DOCUMENTED_TARGET = existsSync(DOCUMENTED_DIR);

/**
 * The bare baseline, served as bench/baseline/serve.ts says (on Remix 2, by
 * the framework's own server, as `remix-serve ./build/server/index.js` would).
 * `build` is a directory under bench/baseline (`build`, or `build-routes-<n>`).
 */
export function startBaseline(
  options: { build?: string; env?: Record<string, string>; nodeOptions?: string } = {},
): Promise<BenchServer> {
  return startFrameworkServer(
    "baseline",
    BASELINE_DIR,
    `./${options.build ?? "build"}/server/index.js`,
    options,
  );
}

/**
 * Target E: the baseline with `@sentry/remix` as Sentry's Remix guide sets it
 * up, started as the guide says:
 * `NODE_OPTIONS='--import ./instrument.server.mjs' remix-serve <build>/server/index.js`
 * (after the unpatched-packages hook, as for A). `build` is relative to the
 * repository root (`build-bench-documented-<n>`); `env` carries SENTRY_DSN.
 */
export function startDocumented(options: {
  build: string;
  env: Record<string, string>;
  nodeOptions?: string;
}): Promise<BenchServer> {
  return startFrameworkServer(
    "documented",
    DOCUMENTED_DIR,
    path.join(ROOT, options.build, "server/index.js"),
    {
      ...options,
      nodeOptions: `--import ./instrument.server.mjs ${options.nodeOptions ?? ""}`,
    },
  );
}

/** A 300-route server on a machine shared with other runs took over 20 s to start. */
const START_LIMIT_MS = 60_000;

/** The baseline's server (bench/baseline/serve.ts) in `cwd` serving `serverBundle`, its preloads first. */
async function startFrameworkServer(
  name: string,
  cwd: string,
  serverBundle: string,
  options: { env?: Record<string, string>; nodeOptions?: string },
): Promise<BenchServer> {
  const port = await freePort();
  const preloads = BASELINE_SERVE.preload.map((file) => `--import "${pathToFileURL(file).href}"`);
  const [command, ...args] = BASELINE_SERVE.command;
  const child = spawn(command!, [...args, serverBundle], {
    cwd,
    env: {
      ...baseEnv(),
      NODE_ENV: "production",
      NODE_OPTIONS: [...preloads, options.nodeOptions ?? ""].join(" "),
      PORT: String(port),
      HOST: "127.0.0.1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Only the tail is kept: the server logs one line per request.
  let output = "";
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-16_384);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const server = register(name, child, `http://127.0.0.1:${port}`, () => output);
  // Started: the server's banner, and a preload's own line where it prints one
  // (it loads the framework before the server listens; the lines come on different pipes).
  const started = () => BASELINE_SERVE.readyWhen.every((line) => output.includes(line));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      const why = output.includes(BASELINE_SERVE.readyWhen[0]!)
        ? `${name} started without what it preloads (${BASELINE_SERVE.preload.join(", ")})`
        : `${name} did not start within ${START_LIMIT_MS / 1000} s`;
      done(new Error(`${why}:\n${output}`));
    }, START_LIMIT_MS);
    const check = () => {
      if (started()) done();
    };
    const onExit = () => done(new Error(`${name} exited before it started:\n${output}`));
    function done(error?: Error) {
      clearTimeout(timer);
      child.stdout!.off("data", check);
      child.stderr!.off("data", check);
      child.off("exit", onExit);
      if (error) void server.stop().finally(() => reject(error));
      else resolve();
    }
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", onExit);
    check();
  });
  return server;
}

/** The app through its real start script (package.json `start`), on a free port of 127.0.0.1. */
export async function startAppServer(name: string, options: StartOptions): Promise<BenchServer> {
  const app = await startApp(options);
  return register(name, app.process, app.url, () => app.output().slice(-16_384));
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, practically always 100). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system, all threads) the process has used so far, in ms. Linux only. */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after "(comm)": state is field 3, utime field 14, stime field 15 (proc(5)).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** Peak (VmHWM) and current (VmRSS) resident set size of the process, in MB. Linux only. */
export function memoryMb(pid: number): { peakRss: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { peakRss: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
}
