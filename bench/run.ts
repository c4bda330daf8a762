/**
 * `npm run bench`: what the scaffold costs on top of a bare Remix app, and how
 * the cost of a request grows with the number of routes.
 *
 * Five servers per route count on 127.0.0.1, measured interleaved (for each
 * round, for each route count, for each workload: A, B, C, D, E) after a warm-up:
 *   A  the bare Remix baseline (bench/baseline, remix-serve, unpatched packages)
 *   B  the app (build-bench-<routes>, real start script), Sentry off
 *   C  the app, Sentry on, SENTRY_TRACES_SAMPLE_RATE=1, DSN → local recorder
 *   D  the app, Sentry on at the default sample rate of app/env.server.ts
 *   E  A plus @sentry/remix as Sentry documents it, 100 % tracing (bench/documented)
 * Each build has `routes` generated routes (remix.config.js), 1, 100 and 300 by default.
 * Prints markdown tables to stdout (progress goes to stderr) and writes the
 * raw samples and the summary to bench/results/<timestamp>.json.
 * See bench/README.md for the columns and the choices behind them.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startRecorder, type Recorder } from "../test-support/sentry-recorder";
import { ensureBuild, routeCountBuilds, type BuildMode } from "./support/builds";
import { headToHead, headToHeadTable } from "./support/head-to-head";
import { growthTable, summarize, table, type Plan, type Sample, type TargetId } from "./support/report";
import { cpuTimeMs, memoryMb, ROOT, stopAll, type BenchServer } from "./support/servers";
import {
  AVAILABLE_TARGETS,
  DEFAULT_SAMPLE_RATE,
  SENTRY_PROJECTS,
  startTarget,
  TARGET_NAMES,
} from "./support/targets";
import { WORKLOADS, type Workload } from "./support/workloads";
import { USAGES } from "./usages";

const USAGE = USAGES.run;

// ---------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------

interface Target {
  id: TargetId;
  name: string;
  start(recorder: Recorder, routes: number): Promise<BenchServer>;
}

const TARGETS: Target[] = AVAILABLE_TARGETS.map((id) => ({
  id,
  name: TARGET_NAMES[id],
  start: (recorder, routes) => startTarget(id, { routes, recorder }),
}));

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

interface Options {
  duration: number;
  rounds: number;
  warmup: number;
  connections: number;
  build: BuildMode;
  targets: Target[];
  workloads: Workload[];
  /** Generated route counts, ascending. */
  routes: number[];
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: "string" },
      rounds: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      build: { type: "string" },
      targets: { type: "string" },
      workloads: { type: "string" },
      routes: { type: "string" },
    },
  });
  const number = (
    name: string,
    value: string | undefined,
    fallback: number,
    integer: boolean,
    min: number,
  ) => {
    const parsed = value === undefined || value === "" ? fallback : Number(value);
    if (!Number.isFinite(parsed) || parsed < min || (integer && !Number.isInteger(parsed))) {
      throw new Error(
        `${name} must be ${integer ? "an integer" : "a number"} ≥ ${min}, got ${value}\n${USAGE}`,
      );
    }
    return parsed;
  };
  const env = process.env;
  const build = values.build ?? env.BENCH_BUILD ?? "auto";
  if (build !== "auto" && build !== "always" && build !== "never")
    throw new Error(`bad --build ${build}\n${USAGE}`);
  const pick = <T extends { id: string }>(all: T[], list: string | undefined, what: string): T[] => {
    if (!list) return all;
    const ids = list.split(",").map((id) => id.trim());
    const unknown = ids.filter((id) => !all.some((item) => item.id === id));
    if (unknown.length)
      throw new Error(`unknown ${what}: ${unknown.join(", ")} (known: ${all.map((i) => i.id).join(", ")})`);
    return all.filter((item) => ids.includes(item.id));
  };
  const routeList = values.routes ?? env.BENCH_ROUTES ?? "1,100,300";
  const routes = [
    ...new Set(routeList.split(",").map((count) => number("routes", count.trim(), NaN, true, 1))),
  ].sort((a, b) => a - b);
  if (routes.some((count) => count > 10_000)) throw new Error(`routes: at most 10000 each\n${USAGE}`);
  return {
    duration: number("duration", values.duration ?? env.BENCH_DURATION, 10, false, 0.1),
    rounds: number("rounds", values.rounds ?? env.BENCH_ROUNDS, 3, true, 1),
    warmup: number("warmup", values.warmup ?? env.BENCH_WARMUP, 3, false, 0),
    connections: number("connections", values.connections ?? env.BENCH_CONNECTIONS, 20, true, 1),
    build,
    targets: pick(TARGETS, values.targets ?? env.BENCH_TARGETS, "targets"),
    workloads: pick(WORKLOADS, values.workloads ?? env.BENCH_WORKLOADS, "workloads"),
    routes,
  };
}

// ---------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------

const log = (line: string) => process.stderr.write(`${line}\n`);

let currentLoad: autocannon.Instance | undefined;
/** Set once the run is being stopped (signal, watchdog, error): no new load starts. */
let stopping = false;

function load(
  server: BenchServer,
  workload: Workload,
  routes: number,
  duration: number,
  connections: number,
) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    if (stopping) return reject(new Error("stopped"));
    currentLoad = autocannon(
      {
        url: server.url + workload.path(routes),
        method: workload.method,
        headers: workload.headers,
        body: workload.body,
        connections,
        pipelining: 1,
        duration,
        timeout: 10,
      },
      (error, result) => {
        currentLoad = undefined;
        if (error) reject(error);
        else resolve(result);
      },
    );
  });
}

/** A server of the run: one per target and route count. */
interface Running {
  target: Target;
  routes: number;
  server: BenchServer;
  /** Requests it has answered so far (warm-up included). */
  served: number;
}

async function measure(
  round: number,
  running: Running,
  workload: Workload,
  options: Options,
  recorder: Recorder,
): Promise<Sample> {
  const { target, server, routes } = running;
  recorder.clear();
  const alive = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw new Error(`${target.name} is gone (${String(error)}); its last output:\n${server.output()}`);
    }
  };
  const cpuBefore = alive(() => cpuTimeMs(server.pid));
  const result = await load(server, workload, routes, options.duration, options.connections);
  const cpu = alive(() => cpuTimeMs(server.pid)) - cpuBefore;
  const memory = alive(() => memoryMb(server.pid));
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
  );
  const requests = result.requests.total;
  const expected = statusCodes[String(workload.status)] ?? 0;
  running.served += requests;
  return {
    round,
    routes,
    workload: workload.id,
    target: target.id,
    requests,
    seconds: result.duration,
    reqPerSec: requests / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: requests > 0 ? cpu / requests : NaN,
    peakRssMb: memory.peakRss,
    rssMb: memory.rss,
    servedSoFar: running.served,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    unexpected: requests - expected + result.errors,
    sentryEnvelopes: recorder.envelopes.filter((envelope) => envelope.project === SENTRY_PROJECTS[target.id])
      .length,
  };
}

/** One request per workload before anything is measured: right status, right page. */
async function preflight({ target, server, routes }: Running, workloads: Workload[]) {
  const sizes: Record<string, number> = {};
  for (const workload of workloads) {
    const response = await fetch(server.url + workload.path(routes), {
      method: workload.method,
      headers: workload.headers,
      body: workload.body,
    });
    const body = await response.text();
    if (response.status !== workload.status || !workload.expect.test(body)) {
      throw new Error(
        `preflight: ${target.name} (${routes} routes) answered ${workload.method} ${workload.path(routes)} ` +
          `with ${response.status} (expected ${workload.status} and ${workload.expect}):\n${body.slice(0, 500)}`,
      );
    }
    sizes[workload.id] = Buffer.byteLength(body);
  }
  return sizes;
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

let recorder: Recorder | undefined;

async function cleanUp(graceMs?: number) {
  stopping = true;
  currentLoad?.stop();
  await stopAll(graceMs);
  await recorder?.close();
}

async function main() {
  const options = readOptions();
  if (process.platform !== "linux")
    throw new Error("bench: needs Linux (/proc/<pid>/stat and /proc/<pid>/status)");
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, "-");
  const resultsDir = path.join(ROOT, "bench/results");
  const { targets, workloads, routes } = options;
  const plan: Plan = {
    routes,
    workloads: workloads.map((w) => w.id),
    targets: targets.map(({ id, name }) => ({ id, name })),
  };

  // Bounded: a run that takes twice its plan (plus start-up and build slack) is stopped.
  const plannedSeconds =
    routes.length * targets.length * workloads.length * (options.warmup + options.rounds * options.duration);
  const limitSeconds = Math.ceil(plannedSeconds * 2 + 300 + routes.length * 600);
  const watchdog = setTimeout(() => {
    log(`bench: still running after ${limitSeconds} s; stopping`);
    void cleanUp(1_000).finally(() => process.exit(1));
  }, limitSeconds * 1000);
  watchdog.unref();

  log(
    `bench: ${targets.map((t) => t.id).join(" ")} × ${workloads.length} workloads × routes ${routes.join(", ")}, ` +
      `${options.rounds} round(s) × ${options.duration} s, warm-up ${options.warmup} s, ` +
      `${options.connections} connections (about ${Math.round(plannedSeconds)} s of load)`,
  );
  for (const count of routes) {
    const builds = routeCountBuilds(count);
    if (targets.some((t) => t.id === "A")) ensureBuild(builds.baseline, options.build, log);
    if (targets.some((t) => "BCDF".includes(t.id))) ensureBuild(builds.app, options.build, log);
    if (targets.some((t) => t.id === "E")) ensureBuild(builds.documented, options.build, log);
  }

  recorder = await startRecorder();
  const running: Running[] = [];
  const bodyBytes: Record<string, Record<string, number>> = {};
  for (const count of routes) {
    for (const target of targets) {
      const server = await target.start(recorder, count);
      const entry: Running = { target, routes: count, server, served: 0 };
      running.push(entry);
      bodyBytes[`${count}/${target.id}`] = await preflight(entry, workloads);
      log(`started ${target.name}, ${count} routes, at ${server.url} (pid ${server.pid})`);
    }
  }
  const serversOf = (count: number) => running.filter((entry) => entry.routes === count);

  if (options.warmup > 0) {
    for (const count of routes) {
      for (const workload of workloads) {
        for (const entry of serversOf(count)) {
          log(`warm-up ${count} routes ${workload.id} ${entry.target.id}`);
          const result = await load(entry.server, workload, count, options.warmup, options.connections);
          entry.served += result.requests.total;
        }
      }
    }
  }

  const samples: Sample[] = [];
  const loadavgBefore = os.loadavg();
  for (let round = 1; round <= options.rounds; round++) {
    for (const count of routes) {
      for (const workload of workloads) {
        for (const entry of serversOf(count)) {
          const sample = await measure(round, entry, workload, options, recorder);
          samples.push(sample);
          log(
            `round ${round}/${options.rounds} ${count} routes ${workload.id} ${entry.target.id}: ` +
              `${sample.reqPerSec.toFixed(0)} req/s, p99 ${sample.p99Ms} ms, ` +
              `${sample.cpuMsPerRequest.toFixed(3)} CPU ms/req` +
              (sample.unexpected
                ? `, ${sample.unexpected} UNEXPECTED responses ${JSON.stringify(sample.statusCodes)}`
                : ""),
          );
        }
      }
    }
  }
  const loadavgAfter = os.loadavg();

  await cleanUp();
  clearTimeout(watchdog);

  const summaries = summarize(samples, plan);
  const documented = headToHead(summaries, plan);
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    } catch {
      return undefined;
    }
  })();
  const report = [
    `## npm run bench, ${startedAt.toISOString()}`,
    "",
    `${options.rounds} round(s) × ${options.duration} s per workload, target and route count, ` +
      `warm-up ${options.warmup} s, ${options.connections} connections, Node ${process.version}, ` +
      `${os.cpus().length} CPU(s), load average ${loadavgBefore[0]!.toFixed(2)} → ${loadavgAfter[0]!.toFixed(2)}` +
      (commit ? `, commit ${commit}` : ""),
    "",
    "Each figure: median (min–max) over the rounds; ×A: this median over the baseline's median in the same run.",
    `routes: generated routes \`/r<i>/items/:id\` in each build (${routes.join(", ")}).`,
    "",
    ...workloads.map((w) => `- \`${w.id}\`: ${w.title(routes[routes.length - 1]!)}`),
    "",
    table(summaries, plan),
    "",
    "Against the route count (medians):",
    "",
    growthTable(summaries, plan),
    "",
    ...(documented.length
      ? [
          "The app at 100 % tracing (C) against `@sentry/remix` as documented (E), medians:",
          "",
          headToHeadTable(documented),
          "",
        ]
      : []),
    'Goals: npm run bench -- goals (bench/README.md, "Goals").',
    "",
  ].join("\n");
  process.stdout.write(report);

  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${stamp}.json`);
  const json = {
    startedAt: startedAt.toISOString(),
    commit,
    node: process.version,
    cpus: os.cpus().map((cpu) => cpu.model),
    loadavg: { before: loadavgBefore, after: loadavgAfter },
    options: { ...options, targets: plan.targets.map((t) => t.id), workloads: plan.workloads },
    defaultSampleRate: DEFAULT_SAMPLE_RATE,
    targets: targets.map((t) => ({ id: t.id, name: t.name })),
    workloads: workloads.map(({ expect, title, path: pathOf, ...w }) => ({
      ...w,
      expect: String(expect),
      paths: Object.fromEntries(routes.map((count) => [count, pathOf(count)])),
      titles: Object.fromEntries(routes.map((count) => [count, title(count)])),
    })),
    bodyBytes,
    samples,
    summaries,
    headToHead: documented,
  };
  writeFileSync(file, JSON.stringify(json, null, 2) + "\n");
  log(`\nbench: wrote ${path.relative(ROOT, file)}`);
  if (samples.some((sample) => sample.unexpected > 0)) {
    log("bench: some responses had an unexpected status, errors or timeouts (⚠ in the table)");
    process.exitCode = 1;
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log(`bench: ${signal}, stopping servers`);
    void cleanUp(2_000).finally(() => process.exit(130));
  });
}

main().catch((error: unknown) => {
  if (stopping) return; // a signal or the watchdog is already ending the run
  log(`bench: ${error instanceof Error ? error.message : String(error)}`);
  void cleanUp(2_000).finally(() => process.exit(1));
});
