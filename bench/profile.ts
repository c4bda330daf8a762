/**
 * `npm run bench -- profile`: where one target's CPU goes, per request. Starts
 * the target of `npm run bench` (same builds, same start) under V8's sampling
 * profiler (`node --cpu-prof`), sends an unmeasured warm-up, then exactly
 * `--requests` requests of one workload, stops the server (the profile is
 * written at exit) and prints the self time per request of the top functions
 * and packages, counting only the samples taken while the measured requests ran.
 * See bench/README.md, "Where the time goes".
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startRecorder, type Recorder } from "../test-support/sentry-recorder";
import { ensureBuild, routeCountBuilds } from "./support/builds";
import { summarizeProfile, type CpuProfile } from "./support/cpu-profile";
import { heapMarkdown, summarizeHeapProfile, type HeapProfile } from "./support/heap-profile";
import type { TargetId } from "./support/report";
import { memoryMb, stopAll, type BenchServer } from "./support/servers";
import { AVAILABLE_TARGETS, startTarget } from "./support/targets";
import { WORKLOADS } from "./support/workloads";
import { USAGES } from "./usages";

const USAGE = USAGES.profile;

const { values } = parseArgs({
  options: {
    target: { type: "string", default: "A" },
    routes: { type: "string", default: "300" },
    workload: { type: "string", default: "doc-item" },
    requests: { type: "string", default: "3000" },
    warmup: { type: "string", default: "1000" },
    connections: { type: "string", default: "10" },
    top: { type: "string", default: "20" },
    rate: { type: "string" },
    save: { type: "string" },
    heap: { type: "boolean" },
  },
});
const integer = (name: string, value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${name} must be a positive integer\n${USAGE}`);
  return parsed;
};
const routes = integer("routes", values.routes);
const requests = integer("requests", values.requests);
const warmup = integer("warmup", values.warmup);
const connections = integer("connections", values.connections);
const top = integer("top", values.top);
const target = values.target as TargetId;
if (!["A", "B", "C", "D", "E", "F"].includes(target))
  throw new Error(`--target must be A, B, C, D, E or F\n${USAGE}`);
if (!AVAILABLE_TARGETS.includes(target))
  throw new Error("--target E: the documented @sentry/remix setup exists on Remix 2 only (bench/documented)");
const workload = WORKLOADS.find((w) => w.id === values.workload);
if (!workload) throw new Error(`unknown --workload ${values.workload}\n${USAGE}`);

const log = (line: string) => process.stderr.write(`${line}\n`);

function send(server: BenchServer, amount: number) {
  return new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url: server.url + workload!.path(routes),
        method: workload!.method,
        headers: workload!.headers,
        body: workload!.body,
        connections,
        amount,
        timeout: 30,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

/** The live heap by package once started, and the resident set (bench/README.md, "The floor"). */
async function heapAtStart(profileDir: string, recorder: Recorder | undefined) {
  const nodeOptions = `--heap-prof --heap-prof-dir=${profileDir} --heap-prof-interval=4096`;
  const server = await startTarget(target, { routes, recorder, nodeOptions, sampleRate: values.rate });
  await (await fetch(`${server.url}/`)).arrayBuffer();
  const { rss } = memoryMb(server.pid);
  await server.stop(20_000);
  const file = readdirSync(profileDir).find((name) => name.endsWith(".heapprofile"));
  if (!file) throw new Error(`no heap profile written; server output:\n${server.output()}`);
  const heap = summarizeHeapProfile(
    JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as HeapProfile,
  );
  const title = `Heap once started: ${target}, ${routes} routes, RSS ${rss.toFixed(1)} MiB`;
  process.stdout.write(`## ${title}\n\n${heapMarkdown(heap)}\n`);
}

async function main() {
  const builds = routeCountBuilds(routes);
  ensureBuild(
    target === "A" ? builds.baseline : target === "E" ? builds.documented : builds.app,
    "auto",
    log,
  );
  const profileDir = mkdtempSync(path.join(os.tmpdir(), "bench-profile-"));
  if (values.heap) {
    const recorder = "CDEF".includes(target) ? await startRecorder() : undefined;
    return heapAtStart(profileDir, recorder).finally(async () => {
      await stopAll(5_000);
      await recorder?.close();
      rmSync(profileDir, { recursive: true, force: true });
    });
  }
  const profiling = `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=500`;
  const recorder = "CDEF".includes(target) ? await startRecorder() : undefined;
  try {
    const server = await startTarget(target, {
      routes,
      recorder,
      nodeOptions: profiling,
      sampleRate: values.rate,
    });
    log(
      `profiling ${target}, ${routes} routes, ${workload!.method} ${workload!.path(routes)} (pid ${server.pid})`,
    );
    await send(server, warmup);
    // V8 stamps samples with the monotonic clock that process.hrtime reads too.
    const from = Number(process.hrtime.bigint() / 1000n);
    const result = await send(server, requests);
    const to = Number(process.hrtime.bigint() / 1000n);
    const unexpected = result.requests.total - (result.statusCodeStats[String(workload!.status)]?.count ?? 0);
    if (unexpected > 0 || result.errors > 0)
      log(`warning: ${unexpected} unexpected responses, ${result.errors} errors`);
    await server.stop(20_000);
    const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error(`no profile written in ${profileDir}; server output:\n${server.output()}`);
    if (values.save) copyFileSync(path.join(profileDir, file), values.save);
    const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as CpuProfile;
    const summary = summarizeProfile(profile, { from, to, requests: result.requests.total, top });
    process.stdout.write(
      [
        `## Profile: ${target}, ${routes} routes, ${workload!.id} (${workload!.method} ${workload!.path(routes)})`,
        "",
        `${result.requests.total} requests measured after ${warmup} unmeasured, ${connections} connections, ` +
          (values.rate !== undefined ? `SENTRY_TRACES_SAMPLE_RATE=${values.rate}, ` : "") +
          `Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}; ${summary.note}`,
        "",
        summary.markdown,
        "",
      ].join("\n"),
    );
  } finally {
    await stopAll(5_000);
    await recorder?.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
}

main().catch(async (error: unknown) => {
  log(`bench profile: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(2_000);
  process.exit(1);
});
