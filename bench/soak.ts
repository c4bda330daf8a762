/**
 * `npm run bench -- soak`: does resident memory level off? Bare Remix (A), Sentry off (B), the default
 * (D) and 100 % traced (C, no per-second cap) serve the same mix of requests at the same fixed rate,
 * all four at once, for `--minutes`; their resident sets are sampled every `--sample` seconds. Each
 * server runs under `--heap-prof`: at the end, what is still live, by owner (ours, the SDK's, the
 * framework's). bench/README.md, "Memory soak".
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startRecorder } from "../test-support/sentry-recorder";
import { ensureBuild, routeCountBuilds } from "./support/builds";
import { summarizeHeapProfile, type HeapProfile } from "./support/heap-profile";
import type { TargetId } from "./support/report";
import { memoryMb, stopAll, type BenchServer } from "./support/servers";
import { soakReport, type SoakSample } from "./support/soak-report";
import { startTarget } from "./support/targets";
import { middlePage } from "./support/workloads";

const { values } = parseArgs({
  options: {
    routes: { type: "string", default: "1" },
    minutes: { type: "string", default: "7" },
    sample: { type: "string", default: "30" },
    rate: { type: "string", default: "100" },
    connections: { type: "string", default: "10" },
  },
});
const routes = Number(values.routes);
const log = (line: string) => process.stderr.write(`${line}\n`);
const TARGETS: TargetId[] = ["A", "B", "D", "C"];

/** The mix, in turn on each connection: pages, data requests, a 404, refused requests. */
function mix(): autocannon.Options["requests"] {
  const page = middlePage(routes);
  return [
    { method: "GET", path: "/" },
    { method: "GET", path: `${page}.data` },
    { method: "GET", path: page },
    { method: "GET", path: "/?_data=root" },
    { method: "GET", path: "/bench/no-such-page" },
    {
      method: "POST",
      path: "/fixtures/action-ok",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      body: "note=hello",
    },
  ];
}

async function main() {
  ensureBuild(routeCountBuilds(routes).app, "auto", log);
  ensureBuild(routeCountBuilds(routes).baseline, "auto", log);
  const recorder = await startRecorder();
  const heapDir = mkdtempSync(path.join(os.tmpdir(), "bench-soak-"));
  const servers = new Map<TargetId, BenchServer>();
  const statuses = new Map<TargetId, Map<number, number>>();
  const loads: autocannon.Instance[] = [];
  try {
    for (const id of TARGETS) {
      const dir = path.join(heapDir, id);
      const heapProf = `--heap-prof --heap-prof-dir=${dir} --heap-prof-interval=32768`;
      servers.set(
        id,
        await startTarget(id, {
          routes,
          recorder,
          nodeOptions: heapProf,
          env: { SENTRY_TRACES_PER_SECOND: "100000" },
        }),
      );
      statuses.set(id, new Map());
    }
    const seconds = Number(values.minutes) * 60;
    const samples: SoakSample[] = [];
    const sample = (elapsed: number) => {
      const rss = Object.fromEntries(TARGETS.map((id) => [id, memoryMb(servers.get(id)!.pid).rss]));
      const served = Object.fromEntries(
        TARGETS.map((id) => [id, [...statuses.get(id)!.values()].reduce((a, b) => a + b, 0)]),
      );
      samples.push({ seconds: elapsed, load: os.loadavg()[0]!, rss, served });
      log(
        `${elapsed} s, load ${os.loadavg()[0]!.toFixed(2)}: ${TARGETS.map((id) => `${id} ${rss[id]!.toFixed(0)} MB`).join(", ")}`,
      );
      recorder.clear();
    };
    sample(0);
    const done = TARGETS.map(
      (id) =>
        new Promise<void>((resolve, reject) => {
          const instance = autocannon(
            {
              url: servers.get(id)!.url,
              requests: mix(),
              connections: Number(values.connections),
              // 0: as fast as each server answers (saturated, so each serves a different count).
              overallRate: Number(values.rate) || undefined,
              duration: seconds,
              timeout: 10,
            },
            (error) => (error ? reject(error) : resolve()),
          );
          instance.on("response", (_client, status) => {
            const counts = statuses.get(id)!;
            counts.set(status, (counts.get(status) ?? 0) + 1);
          });
          loads.push(instance);
        }),
    );
    const started = Date.now();
    const timer = setInterval(
      () => sample(Math.round((Date.now() - started) / 1000)),
      Number(values.sample) * 1000,
    );
    await Promise.all(done);
    clearInterval(timer);
    const end = Math.round((Date.now() - started) / 1000);
    if (end - samples.at(-1)!.seconds >= 5) sample(end);
    // The profiles are written as each server exits.
    for (const id of TARGETS) await servers.get(id)!.stop(60_000);
    const heap = new Map<TargetId, ReturnType<typeof summarizeHeapProfile>>();
    for (const id of TARGETS) {
      const dir = path.join(heapDir, id);
      const file = readdirSync(dir).find((name) => name.endsWith(".heapprofile"));
      if (file)
        heap.set(
          id,
          summarizeHeapProfile(JSON.parse(readFileSync(path.join(dir, file), "utf8")) as HeapProfile),
        );
      else log(`no heap profile from ${id}`);
    }
    console.log(soakReport({ targets: TARGETS, samples, statuses, heap, options: values, routes }));
  } finally {
    for (const instance of loads) instance.stop();
    await stopAll(5_000);
    await recorder.close();
    rmSync(heapDir, { recursive: true, force: true });
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void stopAll(2_000).finally(() => process.exit(130)));
main().catch(async (error: unknown) => {
  log(`bench soak: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(2_000);
  process.exit(1);
});
