/**
 * `npm run bench -- streaming`: static transactions (the app's `traceLifecycle: "static"`) against
 * the SDK's default span streaming (a copy of the build, bench/support/stream-variant.ts), at 10 %
 * and 100 % and at the default configuration, against Sentry off, in interleaved rounds per route
 * count. Counts what reached the recorder, so both sides are seen to send. bench/README.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startRecorder, type RecordedEnvelope } from "../test-support/sentry-recorder";
import { ensureBuild, routeCountBuilds } from "./support/builds";
import { measure, type Measurement } from "./support/measure";
import { ROOT, startAppServer, stopAll, type BenchServer } from "./support/servers";
import { makeStreamingVariant } from "./support/stream-variant";
import { countSent, streamingTable, type Sent } from "./support/streaming-report";
import { WORKLOADS } from "./support/workloads";

const { values } = parseArgs({
  options: {
    routes: { type: "string", default: "1,300" },
    rates: { type: "string", default: "0.1,1" },
    "per-second": { type: "string", default: "100000" },
    workloads: { type: "string", default: "doc-start,data-item" },
    duration: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "20" },
  },
});
const workloads = values.workloads.split(",").map((id) => {
  const workload = WORKLOADS.find((w) => w.id === id);
  if (!workload) throw new Error(`unknown workload ${id}`);
  return workload;
});
const connections = Number(values.connections);
const log = (line: string) => process.stderr.write(`${line}\n`);
const load = () => os.loadavg()[0]!.toFixed(2);

interface Target {
  id: string;
  variant: "static" | "stream" | "off";
  env: Record<string, string>;
  /** Its project at the recorder ("" when off). */
  project: string;
}

function targetsOf(dsn: (project: string) => string): Target[] {
  const targets: Target[] = [{ id: "off", variant: "off", env: {}, project: "" }];
  const configs: [string, Record<string, string>][] = [
    ...values.rates
      .split(",")
      .map((rate): [string, Record<string, string>] => [
        `${Number(rate) * 100} %`,
        { SENTRY_TRACES_SAMPLE_RATE: rate, SENTRY_TRACES_PER_SECOND: values["per-second"] },
      ]),
    ["default", {}],
  ];
  for (const [label, env] of configs)
    for (const variant of ["static", "stream"] as const) {
      const project = String(targets.length + 10);
      const id = `${variant} ${label}`;
      targets.push({
        id,
        variant,
        project,
        env: { ...env, SENTRY_DSN: dsn(project), SENTRY_ENVIRONMENT: "bench" },
      });
    }
  return targets;
}

async function main() {
  const sent = new Map<string, Sent>();
  const onEnvelope = (envelope: RecordedEnvelope) => countSent(sent, envelope);
  const recorder = await startRecorder({ onEnvelope });
  const report: string[] = [];
  const all: Record<string, Measurement[]> = {};
  try {
    for (const routes of values.routes.split(",").map(Number)) {
      const builds = routeCountBuilds(routes);
      ensureBuild(builds.app, "auto", log);
      const streamDir = makeStreamingVariant(builds.appDir);
      const targets = targetsOf((project) => recorder.dsn(project));
      const servers: [Target, BenchServer][] = [];
      for (const target of targets) {
        const build = (target.variant === "stream" ? streamDir : builds.appDir) as `build-bench-${number}`;
        const server = await startAppServer(target.id, { build, env: target.env });
        servers.push([target, server]);
      }
      const loadBefore = load();
      for (const workload of workloads)
        for (const [, server] of servers)
          await measure(server, workload, routes, Number(values.warmup), connections);
      recorder.clear();
      sent.clear();
      const results: Measurement[] = [];
      for (let round = 1; round <= Number(values.rounds); round++)
        for (const workload of workloads)
          for (const [target, server] of servers) {
            const result = await measure(server, workload, routes, Number(values.duration), connections);
            results.push({ ...result, target: target.id, round });
            log(
              `${routes} routes, round ${round}, ${workload.id}, ${target.id}: ${result.rps.toFixed(0)} req/s`,
            );
            recorder.clear();
          }
      // The SDK sends in the background: a second for the last envelopes.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const projects = new Map(targets.map((target) => [target.id, sent.get(target.project)]));
      all[String(routes)] = results;
      report.push(
        streamingTable({ routes, workloads, targets: targets.map((t) => t.id), results, projects }),
        `Load average (1 min) ${loadBefore} → ${load()}; ${values.rounds} rounds × ${values.duration} s, ` +
          `${values.connections} connections, Node ${process.version}.\n`,
      );
      await stopAll();
    }
  } finally {
    await stopAll();
    await recorder.close();
  }
  console.log(report.join("\n"));
  const dir = path.join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `streaming-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ options: values, results: all, report }, null, 1));
  log(`results: ${path.relative(ROOT, file)}`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void stopAll(2_000).finally(() => process.exit(130)));
main().catch(async (error: unknown) => {
  log(`bench streaming: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(2_000);
  process.exit(1);
});
