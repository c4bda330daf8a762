/**
 * `npm run bench -- trace-cost`: what a traced request costs the server in CPU against an untraced
 * one, the figure SENTRY_TRACES_PER_SECOND's default rests on (bench/README.md, "What a trace
 * costs"). Three copies of the production e2e build (`npm run build:e2e` first), Sentry on against
 * the local recorder: U traces nothing (rate 0), T everything (rate 1, no cap), D runs the defaults
 * (rate and cap). Interleaved rounds of closed-loop load on 127.0.0.1; CPU ms per request from
 * /proc, medians (min–max). At saturation a process spends about 1000 CPU ms a second, so a cap of
 * K traces a second costs K × (T − U) of it. `--caps 5,10` adds the defaults at those caps (D5,
 * D10) and `--off` Sentry off (B): each round's figure over U's and B's in the same round (paired, so
 * the machine's drift between rounds cancels), which says what share of the default's cost the cap
 * carries and what the rest does.
 */
import os from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startRecorder } from "../test-support/sentry-recorder";
import { cpuTimeMs, startAppServer, stopAll, type BenchServer } from "./support/servers";
import { fixed, formatSpread, spread } from "./support/stats";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "4" },
    rounds: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    caps: { type: "string", default: "" },
    off: { type: "boolean", default: false },
  },
});
const caps = values.caps ? values.caps.split(",").map(Number) : [];
if (caps.some((cap) => !Number.isInteger(cap) || cap < 1)) throw new Error("--caps: whole numbers from 1");
const WORKLOADS = { document: "/fixtures/items/1", data: "/fixtures/items/1.data" };
const log = (line: string) => process.stderr.write(`${line}\n`);

const load = (url: string, seconds: number) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ url, connections: Number(values.connections), duration: seconds }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );

async function main() {
  const recorder = await startRecorder();
  const dsn = { SENTRY_DSN: recorder.dsn() };
  const targets: Record<string, Record<string, string>> = {
    ...(values.off ? { B: {} } : {}),
    U: { ...dsn, SENTRY_TRACES_SAMPLE_RATE: "0" },
    T: { ...dsn, SENTRY_TRACES_SAMPLE_RATE: "1", SENTRY_TRACES_PER_SECOND: "100000" },
    D: dsn,
    ...Object.fromEntries(caps.map((cap) => [`D${cap}`, { ...dsn, SENTRY_TRACES_PER_SECOND: String(cap) }])),
  };
  const servers: [string, BenchServer][] = [];
  const cpu = new Map<string, number[]>();
  const rps = new Map<string, number[]>();
  const paired = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, value: number) =>
    map.set(key, [...(map.get(key) ?? []), value]);
  try {
    for (const [name, env] of Object.entries(targets))
      servers.push([name, await startAppServer(name, { env })]);
    for (const path of Object.values(WORKLOADS))
      for (const [, server] of servers) await load(server.url + path, Number(values.warmup));
    const loadBefore = os.loadavg()[0]!;
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const [workload, path] of Object.entries(WORKLOADS)) {
        const inRound = new Map<string, number>();
        // Every other round in reverse: a drift within the round falls on each target alike.
        for (const [name, server] of round % 2 ? servers : [...servers].reverse()) {
          const before = cpuTimeMs(server.pid);
          const result = await load(server.url + path, Number(values.duration));
          const perRequest = (cpuTimeMs(server.pid) - before) / result.requests.total;
          add(cpu, `${workload} ${name}`, perRequest);
          inRound.set(name, perRequest);
          add(rps, `${workload} ${name}`, result.requests.total / Number(values.duration));
          log(
            `round ${round} ${workload} ${name}: ${perRequest.toFixed(3)} CPU ms/req, ${result.requests.total} requests`,
          );
        }
        for (const [name, perRequest] of inRound) {
          add(paired, `${workload} ${name} U`, perRequest / inRound.get("U")!);
          if (inRound.has("B")) add(paired, `${workload} ${name} B`, perRequest / inRound.get("B")!);
        }
      }
    }
    console.log(
      `${values.rounds} rounds × ${values.duration} s, ${values.connections} connections, Node ${process.version}, ` +
        `load average ${loadBefore.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)}. Medians (min–max).\n`,
    );
    console.log("| workload | target | CPU ms/req | req/s |\n| --- | --- | --: | --: |");
    for (const workload of Object.keys(WORKLOADS))
      for (const name of Object.keys(targets)) {
        const key = `${workload} ${name}`;
        console.log(
          `| ${workload} | ${name} | ${formatSpread(spread(cpu.get(key)!), 3)} | ${formatSpread(spread(rps.get(key)!), 0)} |`,
        );
      }
    console.log("\n| workload | target | ÷ U, paired | ÷ B, paired |\n| --- | --- | --: | --: |");
    for (const workload of Object.keys(WORKLOADS))
      for (const name of Object.keys(targets)) {
        const over = (base: string) => paired.get(`${workload} ${name} ${base}`);
        const cell = (base: string) => (over(base) ? fixed(spread(over(base)!).median, 3) : "");
        console.log(`| ${workload} | ${name} | ${cell("U")} | ${cell("B")} |`);
      }
    console.log(
      "\n| workload | traced − untraced, CPU ms | share of a saturated core at 10 / 20 / 50 / 100 traces a second |",
    );
    console.log("| --- | --: | --: |");
    for (const workload of Object.keys(WORKLOADS)) {
      const extra = spread(cpu.get(`${workload} T`)!).median - spread(cpu.get(`${workload} U`)!).median;
      const shares = [10, 20, 50, 100].map((cap) => `${fixed((cap * extra) / 10, 1)} %`).join(" / ");
      console.log(`| ${workload} | ${fixed(extra, 3)} | ${shares} |`);
    }
  } finally {
    await stopAll();
    await recorder.close();
  }
}

await main();
