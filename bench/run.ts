/**
 * `npm run bench`: what the scaffold costs on top of a bare Remix app.
 *
 * Four servers on 127.0.0.1, measured interleaved (for each round, for each
 * workload: A, B, C, D) after a warm-up:
 *   A  the bare Remix baseline (bench/baseline, remix-serve)
 *   B  the app (build-bench, real start script), Sentry off
 *   C  the app, Sentry on, SENTRY_TRACES_SAMPLE_RATE=1, DSN → local recorder
 *   D  the app, Sentry on at the default sample rate of app/env.server.ts
 * Prints a markdown table to stdout (progress goes to stderr) and writes the
 * raw samples and the summary to bench/results/<timestamp>.json.
 * See bench/README.md for the columns and the choices behind them.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { envSchema } from "../app/env.server";
import { startRecorder, type Recorder } from "../e2e/support/sentry-recorder";
import { BUILDS, ensureBuild, type BuildMode } from "./support/builds";
import {
  cpuTimeMs,
  memoryMb,
  ROOT,
  startAppServer,
  startBaseline,
  stopAll,
  type BenchServer,
} from "./support/servers";
import { fixed, formatSpread, ratio, spread, type Spread } from "./support/stats";

const USAGE = `usage: npm run bench -- [options]   (each option also reads an environment variable)
  --duration <s>      seconds per measurement             BENCH_DURATION     (default 10)
  --rounds <n>        interleaved rounds                  BENCH_ROUNDS       (default 3)
  --warmup <s>        warm-up seconds per workload/target BENCH_WARMUP       (default 3)
  --connections <n>   concurrent connections              BENCH_CONNECTIONS  (default 20)
  --build <mode>      auto | always | never               BENCH_BUILD        (default auto)
  --targets <ids>     subset, e.g. A,C                    BENCH_TARGETS      (default A,B,C,D)
  --workloads <ids>   subset, e.g. doc-start,not-found    BENCH_WORKLOADS    (default all)
smoke run: BENCH_DURATION=1 BENCH_ROUNDS=1 BENCH_WARMUP=0.5 npm run bench`;

// ---------------------------------------------------------------------------
// Workloads and targets
// ---------------------------------------------------------------------------

interface Workload {
  id: string;
  title: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Every response must have this status… */
  status: number;
  /** …and the preflight response must match this (proves both servers serve the same page). */
  expect: RegExp;
}

const WORKLOADS: Workload[] = [
  {
    id: "doc-start",
    title: "GET / (document)",
    method: "GET",
    path: "/",
    status: 200,
    expect: /<h1>Remix \+ Sentry scaffold<\/h1>/,
  },
  {
    id: "doc-item",
    title: "GET /fixtures/items/42 (document, dynamic segment + loader)",
    method: "GET",
    path: "/fixtures/items/42",
    status: 200,
    expect: /<h1>Item (<!-- -->)?42<\/h1>/,
  },
  {
    id: "data-item",
    title: "GET /fixtures/items/42.data (single fetch)",
    method: "GET",
    path: "/fixtures/items/42.data",
    status: 200,
    expect: /"id","42"/,
  },
  {
    id: "post-form",
    title: "POST /fixtures/action-ok (form action, document)",
    method: "POST",
    path: "/fixtures/action-ok",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "note=hello",
    status: 200,
    expect: /<p>Received: hello<\/p>/,
  },
  {
    id: "not-found",
    title: "GET /bench/no-such-page (404)",
    method: "GET",
    path: "/bench/no-such-page",
    status: 404,
    expect: /This page could not be found\./,
  },
];

/** The production default sample rate: whatever app/env.server.ts defaults to (D leaves the variable unset). */
const DEFAULT_SAMPLE_RATE = envSchema.parse({}).SENTRY_TRACES_SAMPLE_RATE;

interface Target {
  id: "A" | "B" | "C" | "D";
  name: string;
  start(recorder: Recorder): Promise<BenchServer>;
}

/** One recorder, one project per Sentry target, so that envelopes are counted per server. */
const SENTRY_PROJECTS: Partial<Record<Target["id"], string>> = { C: "3", D: "4" };

const TARGETS: Target[] = [
  { id: "A", name: "A bare Remix", start: () => startBaseline() },
  { id: "B", name: "B Sentry off", start: () => startAppServer("B", { build: "build-bench" }) },
  {
    id: "C",
    name: "C Sentry 100 %",
    start: (recorder) =>
      startAppServer("C", {
        build: "build-bench",
        env: {
          SENTRY_DSN: recorder.dsn(SENTRY_PROJECTS.C),
          SENTRY_ENVIRONMENT: "bench",
          SENTRY_TRACES_SAMPLE_RATE: "1",
        },
      }),
  },
  {
    id: "D",
    name: `D Sentry ${DEFAULT_SAMPLE_RATE * 100} % (default)`,
    start: (recorder) =>
      startAppServer("D", {
        build: "build-bench",
        // SENTRY_TRACES_SAMPLE_RATE unset: the app's production default.
        env: { SENTRY_DSN: recorder.dsn(SENTRY_PROJECTS.D), SENTRY_ENVIRONMENT: "bench" },
      }),
  },
];

/** Goals of the issue: req/s ratio to the baseline, per target. */
const THROUGHPUT_GOALS: Partial<Record<Target["id"], number>> = { B: 0.95, C: 0.7, D: 0.9 };
const P99_GOAL = 1.3;
const RSS_GOAL = 1.3;
const RSS_AFTER_REQUESTS = 10_000;

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
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
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
  return {
    duration: number("duration", values.duration ?? env.BENCH_DURATION, 10, false, 0.1),
    rounds: number("rounds", values.rounds ?? env.BENCH_ROUNDS, 3, true, 1),
    warmup: number("warmup", values.warmup ?? env.BENCH_WARMUP, 3, false, 0),
    connections: number("connections", values.connections ?? env.BENCH_CONNECTIONS, 20, true, 1),
    build,
    targets: pick(TARGETS, values.targets ?? env.BENCH_TARGETS, "targets"),
    workloads: pick(WORKLOADS, values.workloads ?? env.BENCH_WORKLOADS, "workloads"),
  };
}

// ---------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------

const log = (line: string) => process.stderr.write(`${line}\n`);

let currentLoad: autocannon.Instance | undefined;
/** Set once the run is being stopped (signal, watchdog, error): no new load starts. */
let stopping = false;

function load(server: BenchServer, workload: Workload, duration: number, connections: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    if (stopping) return reject(new Error("stopped"));
    currentLoad = autocannon(
      {
        url: server.url + workload.path,
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

/** One measurement: one workload against one target for one round. */
interface Sample {
  round: number;
  workload: string;
  target: Target["id"];
  requests: number;
  seconds: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  /** VmHWM: the server's peak resident set since it started. */
  peakRssMb: number;
  /** VmRSS at the end of the measurement. */
  rssMb: number;
  /** Requests the server had answered in total (warm-up and earlier measurements included). */
  servedSoFar: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Responses with another status than the workload's, plus errors and timeouts. */
  unexpected: number;
  /** Envelopes the recorder received from this server during the measurement (the SDK may send some later). */
  sentryEnvelopes: number;
}

async function measure(
  round: number,
  target: Target,
  server: BenchServer,
  workload: Workload,
  options: Options,
  recorder: Recorder,
  served: Map<Target["id"], number>,
): Promise<Sample> {
  recorder.clear();
  const alive = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw new Error(`${target.name} is gone (${String(error)}); its last output:\n${server.output()}`);
    }
  };
  const cpuBefore = alive(() => cpuTimeMs(server.pid));
  const result = await load(server, workload, options.duration, options.connections);
  const cpu = alive(() => cpuTimeMs(server.pid)) - cpuBefore;
  const memory = alive(() => memoryMb(server.pid));
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
  );
  const requests = result.requests.total;
  const expected = statusCodes[String(workload.status)] ?? 0;
  served.set(target.id, (served.get(target.id) ?? 0) + requests);
  return {
    round,
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
    servedSoFar: served.get(target.id)!,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    unexpected: requests - expected + result.errors,
    sentryEnvelopes: recorder.envelopes.filter((envelope) => envelope.project === SENTRY_PROJECTS[target.id])
      .length,
  };
}

/** One request per workload and target before anything is measured: right status, right page. */
async function preflight(target: Target, server: BenchServer, workloads: Workload[]) {
  const sizes: Record<string, number> = {};
  for (const workload of workloads) {
    const response = await fetch(server.url + workload.path, {
      method: workload.method,
      headers: workload.headers,
      body: workload.body,
    });
    const body = await response.text();
    if (response.status !== workload.status || !workload.expect.test(body)) {
      throw new Error(
        `preflight: ${target.name} answered ${workload.method} ${workload.path} with ${response.status}` +
          ` (expected ${workload.status} and ${workload.expect}):\n${body.slice(0, 500)}`,
      );
    }
    sizes[workload.id] = Buffer.byteLength(body);
  }
  return sizes;
}

// ---------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------

interface Summary {
  workload: string;
  target: Target["id"];
  reqPerSec: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  cpuMsPerRequest: Spread;
  peakRssMb: Spread;
  /** Median of this target over the baseline's median, same workload, same run. */
  vsBaseline: { reqPerSec: number; p99Ms: number; cpuMsPerRequest: number; peakRssMb: number };
  unexpected: number;
  sentryEnvelopesPerRequest: number;
}

function summarize(samples: Sample[], options: Options): Summary[] {
  const of = (workload: string, target: string) =>
    samples.filter((sample) => sample.workload === workload && sample.target === target);
  const summaries: Summary[] = [];
  for (const workload of options.workloads) {
    const base = of(workload.id, "A");
    const baseMedian = (key: keyof Sample) => spread(base.map((sample) => sample[key] as number)).median;
    for (const target of options.targets) {
      const mine = of(workload.id, target.id);
      const figure = (key: keyof Sample) => spread(mine.map((sample) => sample[key] as number));
      const requests = mine.reduce((sum, sample) => sum + sample.requests, 0);
      const summary: Summary = {
        workload: workload.id,
        target: target.id,
        reqPerSec: figure("reqPerSec"),
        p50Ms: figure("p50Ms"),
        p99Ms: figure("p99Ms"),
        cpuMsPerRequest: figure("cpuMsPerRequest"),
        peakRssMb: figure("peakRssMb"),
        vsBaseline: {
          reqPerSec: ratio(figure("reqPerSec").median, baseMedian("reqPerSec")),
          p99Ms: ratio(figure("p99Ms").median, baseMedian("p99Ms")),
          cpuMsPerRequest: ratio(figure("cpuMsPerRequest").median, baseMedian("cpuMsPerRequest")),
          peakRssMb: ratio(figure("peakRssMb").median, baseMedian("peakRssMb")),
        },
        unexpected: mine.reduce((sum, sample) => sum + sample.unexpected, 0),
        sentryEnvelopesPerRequest: requests
          ? mine.reduce((sum, s) => sum + s.sentryEnvelopes, 0) / requests
          : NaN,
      };
      summaries.push(summary);
    }
  }
  return summaries;
}

const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "n/a");

function table(summaries: Summary[], options: Options): string {
  const name = (id: string) => options.targets.find((target) => target.id === id)!.name;
  const lines = [
    "| workload | target | req/s | ×A | p50 ms | p99 ms | ×A | CPU ms/req | ×A | peak RSS MB | ×A |",
    "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
  ];
  for (const s of summaries) {
    const warning = s.unexpected > 0 ? ` ⚠ ${s.unexpected} unexpected` : "";
    lines.push(
      `| ${s.workload} | ${name(s.target)}${warning} | ${formatSpread(s.reqPerSec, 0)} | ${times(s.vsBaseline.reqPerSec)} | ` +
        `${formatSpread(s.p50Ms, 1)} | ${formatSpread(s.p99Ms, 1)} | ${times(s.vsBaseline.p99Ms)} | ` +
        `${formatSpread(s.cpuMsPerRequest, 3)} | ${times(s.vsBaseline.cpuMsPerRequest)} | ` +
        `${formatSpread(s.peakRssMb, 0)} | ${times(s.vsBaseline.peakRssMb)} |`,
    );
  }
  return lines.join("\n");
}

interface Goal {
  goal: string;
  target: Target["id"];
  measured: string;
  met: boolean | undefined;
}

/** RSS (VmRSS) of a target at the end of the first measurement after which it had served `count` requests. */
function rssAfter(samples: Sample[], target: Target["id"], count: number): number {
  return samples.find((sample) => sample.target === target && sample.servedSoFar >= count)?.rssMb ?? NaN;
}

function goals(summaries: Summary[], samples: Sample[], options: Options): Goal[] {
  const result: Goal[] = [];
  const worst = (target: string, pick: (s: Summary) => number, direction: "min" | "max") => {
    const values = summaries
      .filter((s) => s.target === target)
      .map(pick)
      .filter(Number.isFinite);
    if (values.length === 0) return NaN;
    return direction === "min" ? Math.min(...values) : Math.max(...values);
  };
  for (const target of options.targets) {
    const throughputGoal = THROUGHPUT_GOALS[target.id];
    if (throughputGoal !== undefined) {
      const value = worst(target.id, (s) => s.vsBaseline.reqPerSec, "min");
      result.push({
        goal: `req/s ≥ ${throughputGoal}× A (every workload)`,
        target: target.id,
        measured: `worst ${times(value)}`,
        met: Number.isFinite(value) ? value >= throughputGoal : undefined,
      });
      const p99 = worst(target.id, (s) => s.vsBaseline.p99Ms, "max");
      result.push({
        goal: `p99 ≤ ${P99_GOAL}× A (every workload)`,
        target: target.id,
        measured: `worst ${times(p99)}`,
        met: Number.isFinite(p99) ? p99 <= P99_GOAL : undefined,
      });
    }
    if (target.id === "C" || target.id === "D") {
      const mine = rssAfter(samples, target.id, RSS_AFTER_REQUESTS);
      const base = rssAfter(samples, "A", RSS_AFTER_REQUESTS);
      const value = ratio(mine, base);
      result.push({
        goal: `RSS after ${RSS_AFTER_REQUESTS} requests ≤ ${RSS_GOAL}× A`,
        target: target.id,
        measured: Number.isFinite(value)
          ? `${fixed(mine, 0)} MB vs ${fixed(base, 0)} MB = ${times(value)}`
          : `n/a (fewer than ${RSS_AFTER_REQUESTS} requests served)`,
        met: Number.isFinite(value) ? value <= RSS_GOAL : undefined,
      });
    }
  }
  return result;
}

function goalsTable(list: Goal[], options: Options): string {
  const name = (id: string) => options.targets.find((target) => target.id === id)!.name;
  const mark = (met: boolean | undefined) => (met === undefined ? "n/a" : met ? "met" : "**missed**");
  return [
    "| target | goal | measured | |",
    "| --- | --- | --- | --- |",
    ...list.map((g) => `| ${name(g.target)} | ${g.goal} | ${g.measured} | ${mark(g.met)} |`),
  ].join("\n");
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
  const { targets, workloads } = options;

  // Bounded: a run that takes twice its plan (plus start-up slack) is stopped.
  const plannedSeconds =
    targets.length * workloads.length * (options.warmup + options.rounds * options.duration);
  const limitSeconds = Math.ceil(plannedSeconds * 2 + 300);
  const watchdog = setTimeout(() => {
    log(`bench: still running after ${limitSeconds} s; stopping`);
    void cleanUp(1_000).finally(() => process.exit(1));
  }, limitSeconds * 1000);
  watchdog.unref();

  log(
    `bench: ${targets.map((t) => t.id).join(" ")} × ${workloads.length} workloads, ${options.rounds} round(s) × ` +
      `${options.duration} s, warm-up ${options.warmup} s, ${options.connections} connections ` +
      `(about ${Math.round(plannedSeconds)} s of load)`,
  );
  if (targets.some((t) => t.id === "A")) ensureBuild(BUILDS.baseline, options.build, log);
  if (targets.some((t) => t.id !== "A")) ensureBuild(BUILDS.bench, options.build, log);

  recorder = await startRecorder();
  const servers = new Map<Target["id"], BenchServer>();
  const bodyBytes: Record<string, Record<string, number>> = {};
  const served = new Map<Target["id"], number>();
  for (const target of targets) {
    const server = await target.start(recorder);
    servers.set(target.id, server);
    bodyBytes[target.id] = await preflight(target, server, workloads);
    log(`started ${target.name} at ${server.url} (pid ${server.pid})`);
  }

  if (options.warmup > 0) {
    for (const workload of workloads) {
      for (const target of targets) {
        log(`warm-up ${workload.id} ${target.id}`);
        const result = await load(servers.get(target.id)!, workload, options.warmup, options.connections);
        served.set(target.id, (served.get(target.id) ?? 0) + result.requests.total);
      }
    }
  }

  const samples: Sample[] = [];
  const loadavgBefore = os.loadavg();
  for (let round = 1; round <= options.rounds; round++) {
    for (const workload of workloads) {
      for (const target of targets) {
        const sample = await measure(
          round,
          target,
          servers.get(target.id)!,
          workload,
          options,
          recorder,
          served,
        );
        samples.push(sample);
        log(
          `round ${round}/${options.rounds} ${workload.id} ${target.id}: ${sample.reqPerSec.toFixed(0)} req/s, ` +
            `p99 ${sample.p99Ms} ms, ${sample.cpuMsPerRequest.toFixed(3)} CPU ms/req` +
            (sample.unexpected
              ? `, ${sample.unexpected} UNEXPECTED responses ${JSON.stringify(sample.statusCodes)}`
              : ""),
        );
      }
    }
  }
  const loadavgAfter = os.loadavg();

  await cleanUp();
  clearTimeout(watchdog);

  const summaries = summarize(samples, options);
  const goalList = goals(summaries, samples, options);
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
    `${options.rounds} round(s) × ${options.duration} s per workload and target, warm-up ${options.warmup} s, ` +
      `${options.connections} connections, Node ${process.version}, ${os.cpus().length} CPU(s), ` +
      `load average ${loadavgBefore[0]!.toFixed(2)} → ${loadavgAfter[0]!.toFixed(2)}` +
      (commit ? `, commit ${commit}` : ""),
    "",
    "Each figure: median (min–max) over the rounds; ×A: this median over the baseline's median in the same run.",
    "",
    ...workloads.map((w) => `- \`${w.id}\`: ${w.title}`),
    "",
    table(summaries, options),
    "",
    goalsTable(goalList, options),
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
    options: { ...options, targets: targets.map((t) => t.id), workloads: workloads.map((w) => w.id) },
    defaultSampleRate: DEFAULT_SAMPLE_RATE,
    targets: targets.map((t) => ({ id: t.id, name: t.name })),
    workloads: workloads.map(({ expect, ...w }) => ({ ...w, expect: String(expect) })),
    bodyBytes,
    samples,
    summaries,
    goals: goalList,
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
