/**
 * `npm run bench -- sentry-logs`: what `SENTRY_LOGS_LEVEL=info` costs a request.
 * Two servers of the e2e build (`npm run build:e2e`), Sentry on at the default rate,
 * Sentry logs off and on, measured in interleaved rounds on 127.0.0.1: a document
 * (no logger line on Remix 2: its access line is remix-serve's) and a 405 refusal
 * (one info line, so one Sentry log each). Prints CPU ms per request and on ÷ off.
 * See bench/README.md ("Sentry logs").
 */
import os from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startRecorder } from "../test-support/sentry-recorder";
import { formatSpread, ratio, spread } from "./support/stats";
import { cpuTimeMs, startAppServer, stopAll, type BenchServer } from "./support/servers";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "4" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(`usage: npm run bench -- sentry-logs [--rounds 4] [--duration 5] [--connections 10]
Two servers of the e2e build (npm run build:e2e first): SENTRY_LOGS_LEVEL unset and info.`);
  process.exit(0);
}

const WORKLOADS = [
  { id: "document", method: "GET" as const, path: "/fixtures/items/1" },
  { id: "refusal (1 line)", method: "PUT" as const, path: "/fixtures/items/1" },
];

function load(server: BenchServer, workload: (typeof WORKLOADS)[number], seconds: number) {
  return new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url: server.url + workload.path,
        method: workload.method,
        connections: Number(values.connections),
        duration: seconds,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

async function main() {
  const recorder = await startRecorder();
  const base = { SENTRY_DSN: recorder.dsn(), SENTRY_TRACES_SAMPLE_RATE: "0.1" };
  const servers = {
    off: await startAppServer("logs off", { env: base }),
    on: await startAppServer("logs on", { env: { ...base, SENTRY_LOGS_LEVEL: "info" } }),
  };
  const cpu = new Map<string, number[]>();
  try {
    for (const workload of WORKLOADS)
      for (const server of Object.values(servers)) await load(server, workload, 2);
    const loadBefore = os.loadavg()[0]!;
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const workload of WORKLOADS) {
        for (const [target, server] of Object.entries(servers)) {
          const before = cpuTimeMs(server.pid);
          const result = await load(server, workload, Number(values.duration));
          const perRequest = (cpuTimeMs(server.pid) - before) / result.requests.total;
          const key = `${workload.id} ${target}`;
          cpu.set(key, [...(cpu.get(key) ?? []), perRequest]);
          process.stderr.write(
            `round ${round} ${key}: ${perRequest.toFixed(3)} CPU ms/req, ${result.requests.total} requests\n`,
          );
        }
      }
    }
    console.log(
      `load average ${loadBefore.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)}, ${recorder.items("log").length} log items recorded`,
    );
    console.log("| workload | CPU ms/req, logs off | logs on | on ÷ off (median of rounds) |");
    console.log("| --- | --- | --- | --- |");
    for (const { id } of WORKLOADS) {
      const off = cpu.get(`${id} off`)!;
      const on = cpu.get(`${id} on`)!;
      const ratios = spread(on.map((value, index) => ratio(value, off[index]!)));
      console.log(
        `| ${id} | ${formatSpread(spread(off), 3)} | ${formatSpread(spread(on), 3)} | ${formatSpread(ratios, 2)} |`,
      );
    }
  } finally {
    await stopAll();
    await recorder.close();
  }
}

await main();
