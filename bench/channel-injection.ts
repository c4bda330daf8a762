/**
 * `npm run bench -- channel-injection`: what the SDK's runtime diagnostics-channel injection
 * (database spans, docs/decisions/0079) costs, with Sentry on at 100 % on the e2e build
 * (`npm run build:e2e` first): injection on (the app's setting), on with Express loaded before
 * Sentry (bench/support/express-before-sentry.mjs) and off (bench/support/no-channel-injection.mjs).
 * Start-up: interleaved rounds of starting each, from spawning the start command to the first
 * answered `GET /`. Per request: the three servers run side by side, and each round gives each in
 * turn (the order alternating) a short autocannon burst on a document and on a single fetch: the
 * server's CPU ms per request (from /proc) and requests per second. Prints the medians and each
 * variant's ratio to off within a round (their median); on a shared machine only ratios mean anything.
 */
import autocannon from "autocannon";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startApp, type AppServer } from "../test-support/app-server";
import { startRecorder } from "../test-support/sentry-recorder";
import { cpuTimeMs } from "./support/servers";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "8" },
    "start-rounds": { type: "string", default: "5" },
    duration: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
  },
});
const ROOT = path.resolve(import.meta.dirname, "..");
/** Preloads of each side: injection on (the app's setting), on with Express loaded before Sentry, off. */
const VARIANTS = {
  on: [],
  "on, Express first": ["./bench/support/express-before-sentry.mjs"],
  off: ["./bench/support/no-channel-injection.mjs"],
} satisfies Record<string, string[]>;
const WORKLOADS = { document: "/fixtures/items/1", "single fetch": "/fixtures/items/1.data" };
type Variant = keyof typeof VARIANTS;
type Figure = "startMs" | `${keyof typeof WORKLOADS} ${"cpu" | "rps"}`;
const log = (line: string) => process.stderr.write(`${line}\n`);

function load(app: AppServer, url: string, seconds: number) {
  return new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      { url: app.url + url, connections: Number(values.connections), duration: seconds },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

/** Samples by variant and figure, one per round. */
type Samples = Map<Variant, Map<Figure, number[]>>;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

/** Medians, and each variant's ratio to `off` taken within each round, then their median. */
function report(samples: Samples): string {
  const off = samples.get("off")!;
  const variants = [...samples.keys()];
  const rows = [...off.keys()].map((figure) => {
    const cells = variants.map((variant) => median(samples.get(variant)!.get(figure)!).toFixed(2));
    const ratios = variants
      .filter((variant) => variant !== "off")
      .map((variant) => {
        const values = samples.get(variant)!.get(figure)!;
        return median(values.map((value, round) => value / off.get(figure)![round]!)).toFixed(3);
      });
    return `| ${figure} | ${[...cells, ...ratios].join(" | ")} |`;
  });
  const others = variants.filter((variant) => variant !== "off").map((variant) => `${variant} / off`);
  const head = ["figure", ...variants, ...others];
  return [`| ${head.join(" | ")} |`, `| --- |${" ---: |".repeat(head.length - 1)}`, ...rows].join("\n");
}

const start = (variant: Variant, dsn: string) =>
  startApp({
    env: { SENTRY_DSN: dsn, SENTRY_TRACES_SAMPLE_RATE: "1", SENTRY_ENVIRONMENT: "bench" },
    preload: VARIANTS[variant],
  });

async function burst(
  app: AppServer,
  url: string,
  add: (figure: Figure, value: number) => void,
  name: string,
) {
  const cpuBefore = cpuTimeMs(app.process.pid!);
  const result = await load(app, url, Number(values.duration));
  const cpu = cpuTimeMs(app.process.pid!) - cpuBefore;
  if (result.non2xx || result.errors)
    throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  add(`${name} cpu` as Figure, cpu / result.requests.total);
  add(`${name} rps` as Figure, result.requests.average);
}

async function main() {
  if (!existsSync(path.join(ROOT, "build-e2e/server/index.js")))
    throw new Error("run `npm run build:e2e` first");
  const recorder = await startRecorder();
  const names = Object.keys(VARIANTS) as Variant[];
  const samples: Samples = new Map(names.map((name) => [name, new Map()]));
  const adder = (variant: Variant) => (figure: Figure, value: number) => {
    const figures = samples.get(variant)!;
    figures.set(figure, [...(figures.get(figure) ?? []), value]);
  };
  const order = (round: number) => (round % 2 ? names : names.toReversed());
  const apps = new Map<Variant, AppServer>();
  try {
    for (let round = 1; round <= Number(values["start-rounds"]); round++) {
      for (const variant of order(round)) {
        const began = performance.now();
        const app = await start(variant, recorder.dsn());
        if (!(await fetch(app.url + "/")).ok) throw new Error("GET / failed");
        adder(variant)("startMs", performance.now() - began);
        await app.stop();
      }
      log(`start-up round ${round} done`);
    }
    for (const variant of names) apps.set(variant, await start(variant, recorder.dsn()));
    for (const app of apps.values()) for (const url of Object.values(WORKLOADS)) await load(app, url, 2);
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const [name, url] of Object.entries(WORKLOADS)) {
        for (const variant of order(round)) await burst(apps.get(variant)!, url, adder(variant), name);
      }
      recorder.clear();
      log(`round ${round} done`);
    }
  } finally {
    await Promise.all([...apps.values()].map((app) => app.stop()));
    await recorder.close();
  }
  console.log(report(samples));
}

await main();
