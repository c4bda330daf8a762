/**
 * `npm run bench -- channel-injection-parts`: the parts of the runtime channel injection's cost
 * (docs/decisions/0079) that `channel-injection` cannot tell from a shared machine's noise,
 * each measured inside fresh processes, 5 interleaved rounds, injection on, on with Express loaded
 * before Sentry, and off: the CPU ms of loading what it rewrites in this app (remix-serve's Express,
 * then pg), and the CPU ns per call of Express's `Layer.handle_request` (8 calls per request here).
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";

const MODES = ["on", "express-first", "off"] as const;
type Mode = (typeof MODES)[number];
interface Sample {
  express: number;
  pg: number;
  nsPerCall: number;
}
const CALLS = 2_000_000;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function child(mode: Mode) {
  const require = createRequire(import.meta.url);
  const fromServe = createRequire(require.resolve("@remix-run/serve/package.json"));
  if (mode === "express-first") fromServe("express");
  const Sentry = await import("@sentry/node");
  Sentry.init({
    dsn: "http://public@127.0.0.1:9/1",
    tracesSampleRate: 1,
    enableRuntimeChannelInjection: mode !== "off",
    // As the app: no Express spans, so nothing listens to its channel.
    integrations: (defaults) => defaults.filter((integration) => integration.name !== "Express"),
  });
  const began = cpuMs();
  const Layer = fromServe("express/lib/router/layer.js") as new (
    path: string,
    options: object,
    fn: (req: object, res: object, next: () => void) => void,
  ) => { handle_request(req: object, res: object, next: () => void): void };
  const express = cpuMs() - began;
  await import("pg");
  const pg = cpuMs() - began - express;
  const layer = new Layer("/", {}, (req, res, next) => next());
  const call = () => layer.handle_request({}, {}, () => {});
  for (let i = 0; i < CALLS; i++) call();
  const calling = cpuMs();
  for (let i = 0; i < CALLS; i++) call();
  const nsPerCall = ((cpuMs() - calling) * 1e6) / CALLS;
  console.log(JSON.stringify({ express, pg, nsPerCall }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function main() {
  const samples = Object.fromEntries(MODES.map((mode) => [mode, [] as Sample[]])) as Record<Mode, Sample[]>;
  for (let round = 0; round < 5; round++) {
    for (const mode of round % 2 ? [...MODES].reverse() : MODES) {
      const out = execFileSync(process.execPath, [import.meta.filename, "child", mode], { encoding: "utf8" });
      samples[mode].push(JSON.parse(out) as Sample);
    }
  }
  console.log(
    "| mode | load Express, CPU ms | then pg, CPU ms | Layer call, CPU ns |\n| --- | ---: | ---: | ---: |",
  );
  for (const mode of MODES) {
    const figure = (key: keyof Sample, digits: number) =>
      median(samples[mode].map((sample) => sample[key])).toFixed(digits);
    console.log(`| ${mode} | ${figure("express", 0)} | ${figure("pg", 0)} | ${figure("nsPerCall", 1)} |`);
  }
}

// A child is this file run on its own: `child <mode>`.
const { values, positionals } = parseArgs({
  options: { help: { type: "boolean", short: "h" } },
  allowPositionals: true,
});
if (values.help) {
  console.log(`usage: npm run bench -- channel-injection-parts
Fresh processes, 5 interleaved rounds of injection on, on with Express first, and off: loading
Express then pg (CPU ms) and a call of Express's Layer.handle_request (CPU ns).`);
  process.exit(0);
}
if (positionals[0] === "child") await child(positionals[1] as Mode);
else if (positionals.length === 0) main();
else throw new Error(`unknown argument ${positionals[0]}`);
