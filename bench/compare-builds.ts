/**
 * `npm run bench -- compare-builds`: did a change of the app make a request cheaper? Two bench
 * builds of one route count (e.g. `build-bench-1` copied aside before the change, and the new
 * one), each started as targets of `npm run bench`, measured in interleaved rounds (for each
 * round, workload and target: before, after) on 127.0.0.1: CPU ms per request (median, min–max)
 * and after ÷ before. Its options: USAGE. `--after-root` can name, e.g.
 * the React Router 8 tree `npm run test:upgrade` leaves (its own start script
 * and packages): the two frameworks head to head. See bench/README.md ("Before and after").
 */
import os from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import type { StartOptions } from "../test-support/app-server";
import { startRecorder } from "../test-support/sentry-recorder";
import { fixed, formatSpread, ratio, spread } from "./support/stats";
import { routeCountBuilds } from "./support/builds";
import { cpuTimeMs, startAppServer, startBaseline, stopAll, type BenchServer } from "./support/servers";
import { WORKLOADS } from "./support/workloads";
import { USAGES } from "./usages";

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    after: { type: "string" },
    "after-root": { type: "string" },
    routes: { type: "string", default: "1" },
    targets: { type: "string", default: "B,C,D" },
    workloads: { type: "string", default: "doc-item,data-item" },
    rate: { type: "string" },
    duration: { type: "string", default: "5" },
    rounds: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "20" },
    baseline: { type: "boolean", default: false },
  },
});
const USAGE = USAGES["compare-builds"];
if (!values.before || !values.after) throw new Error(USAGE);
const routes = Number(values.routes);
const workloads = values.workloads.split(",").map((id) => WORKLOADS.find((w) => w.id === id)!);
if (workloads.includes(undefined!)) throw new Error(`unknown workload in ${values.workloads}`);
const log = (line: string) => process.stderr.write(`${line}\n`);

function load(server: BenchServer, workload: (typeof WORKLOADS)[number], seconds: number) {
  return new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url: server.url + workload.path(routes),
        method: workload.method,
        headers: workload.headers,
        body: workload.body,
        connections: Number(values.connections),
        duration: seconds,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

async function main() {
  const recorder = await startRecorder();
  const env: Record<string, StartOptions["env"]> = {
    B: {},
    C: { SENTRY_DSN: recorder.dsn("3"), SENTRY_TRACES_SAMPLE_RATE: "1" },
    D: { SENTRY_DSN: recorder.dsn("4"), SENTRY_TRACES_SAMPLE_RATE: values.rate },
  };
  const servers: { target: string; build: "before" | "after"; server: BenchServer }[] = [];
  try {
    // The bare app first in each round, as in npm run bench (its build must exist: npm run bench builds it).
    if (values.baseline)
      servers.push({
        target: "A",
        build: "before",
        server: await startBaseline({ build: routeCountBuilds(routes).baselineDir }),
      });
    for (const target of values.targets.split(",")) {
      for (const build of ["before", "after"] as const) {
        const dir = (build === "before" ? values.before : values.after) as StartOptions["build"];
        servers.push({
          target,
          build,
          server: await startAppServer(target, {
            build: dir,
            env: env[target],
            root: build === "after" ? values["after-root"] : undefined,
          }),
        });
      }
    }
    for (const workload of workloads)
      for (const { server } of servers) await load(server, workload, Number(values.warmup));
    const cpu = new Map<string, number[]>();
    const rps = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, value: number) =>
      map.set(key, [...(map.get(key) ?? []), value]);
    const loadBefore = os.loadavg()[0]!;
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const workload of workloads) {
        for (const { target, build, server } of servers) {
          const before = cpuTimeMs(server.pid);
          const result = await load(server, workload, Number(values.duration));
          const perRequest = (cpuTimeMs(server.pid) - before) / result.requests.total;
          const key = `${workload.id} ${target} ${build}`;
          add(cpu, key, perRequest);
          add(rps, key, result.requests.total / Number(values.duration));
          log(
            `round ${round} ${key}: ${perRequest.toFixed(3)} CPU ms/req, ${result.requests.total} requests`,
          );
        }
      }
    }
    console.log(
      `Before ${values.before}, after ${values.after}${values["after-root"] ? ` (in ${values["after-root"]})` : ""}: ` +
        `${values.rounds} rounds × ${values.duration} s, ` +
        `${values.connections} connections, ${routes} route(s), Node ${process.version}, ` +
        `load average ${loadBefore.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)}. Medians (min–max).\n`,
    );
    console.log(
      "| workload | target | CPU ms/req before | after | after ÷ before | req/s before | after | after ÷ before |\n" +
        "| --- | --- | --: | --: | --: | --: | --: | --: |",
    );
    for (const workload of workloads) {
      for (const target of values.targets.split(",")) {
        const [cb, ca, rb, ra] = [cpu, rps].flatMap((map) =>
          (["before", "after"] as const).map((build) =>
            spread(map.get(`${workload.id} ${target} ${build}`) ?? []),
          ),
        );
        console.log(
          `| ${workload.id} | ${target} | ${formatSpread(cb!, 3)} | ${formatSpread(ca!, 3)} | ` +
            `${fixed(ratio(ca!.median, cb!.median), 3)} | ${formatSpread(rb!, 0)} | ${formatSpread(ra!, 0)} | ` +
            `${fixed(ratio(ra!.median, rb!.median), 3)} |`,
        );
      }
    }
    if (values.baseline) {
      console.log(
        "\nOver the bare app of this tree (A, measured in the same rounds): CPU ms per request, medians.\n\n" +
          "| workload | A bare | target | before ÷ A | after ÷ A |\n| --- | --: | --- | --: | --: |",
      );
      for (const workload of workloads) {
        const bare = spread(cpu.get(`${workload.id} A before`) ?? []).median;
        for (const target of values.targets.split(",")) {
          const [before, after] = (["before", "after"] as const).map(
            (build) => spread(cpu.get(`${workload.id} ${target} ${build}`) ?? []).median,
          );
          console.log(
            `| ${workload.id} | ${fixed(bare, 3)} | ${target} | ${fixed(ratio(before!, bare), 3)} | ${fixed(ratio(after!, bare), 3)} |`,
          );
        }
      }
    }
  } finally {
    await stopAll();
    await recorder.close();
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopAll(2_000).finally(() => process.exit(130)));
}
main().catch(async (error: unknown) => {
  log(`compare-builds: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(2_000);
  process.exit(1);
});
