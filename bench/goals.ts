/**
 * `npm run bench -- goals`: every speed and memory goal the docs state, measured in one run on
 * 127.0.0.1 (bench/README.md, "Goals"). Each section starts its servers and warms them up; then
 * every round passes through every section, each comparing its servers in turn. One table: each
 * goal's median over the rounds, its spread, its bound and the verdict; exit 1 when a goal that is
 * held is missed by more than its spread.
 */
import os from "node:os";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startRecorder, type Recorder } from "../test-support/sentry-recorder";
import { ensureBuild, type BuildMode } from "./support/builds";
import type { GoalContext, GoalSection } from "./support/goal-run";
import { exitCode, goalsTable, type GoalRow } from "./support/goal-verdict";
import { failingIngestGoals } from "./support/goals-failing-ingest";
import { forgedHeaderGoals } from "./support/goals-forged-header";
import { ingestMemoryGoals } from "./support/goals-ingest-memory";
import { manifestAttackGoals } from "./support/goals-manifest-attack";
import { sentryCostGoals } from "./support/goals-sentry-cost";
import { startGoals } from "./support/goals-start";
import { stopAll } from "./support/servers";
import { GOAL_SECTIONS, USAGES, type GoalSectionName } from "./usages";

const SECTIONS: Record<GoalSectionName, (context: GoalContext) => GoalSection> = {
  start: startGoals,
  cost: sentryCostGoals,
  forged: forgedHeaderGoals,
  ingest: failingIngestGoals,
  "ingest-memory": ingestMemoryGoals,
  attack: manifestAttackGoals,
};

const USAGE = USAGES.goals;

const log = (line: string) => process.stderr.write(`${line}\n`);

function readOptions() {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "5" },
      duration: { type: "string", default: "5" },
      warmup: { type: "string", default: "3" },
      connections: { type: "string", default: "20" },
      build: { type: "string", default: "auto" },
      only: { type: "string" },
      "plant-ms": { type: "string", default: process.env.BENCH_PLANT_MS ?? "0" },
    },
  });
  const number = (name: keyof typeof values, min: number) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < min)
      throw new Error(`--${name} must be a number ≥ ${min}\n${USAGE}`);
    return value;
  };
  const only = values.only?.split(",") ?? [...GOAL_SECTIONS];
  const isSection = (name: string): name is GoalSectionName => Object.hasOwn(SECTIONS, name);
  const unknown = only.filter((name) => !isSection(name));
  if (unknown.length) throw new Error(`unknown section ${unknown.join(", ")}\n${USAGE}`);
  if (!["auto", "always", "never"].includes(values.build)) throw new Error(`bad --build\n${USAGE}`);
  return {
    rounds: number("rounds", 1),
    duration: number("duration", 0.5),
    warmup: number("warmup", 0),
    connections: number("connections", 1),
    build: values.build as BuildMode,
    only: only.filter(isSection),
    plantMs: number("plant-ms", 0),
  };
}

let recorder: Recorder | undefined;
const sections: GoalSection[] = [];

async function cleanUp() {
  await Promise.allSettled(sections.map((section) => section.stop()));
  await stopAll();
  await recorder?.close();
}

async function main() {
  const options = readOptions();
  if (process.platform !== "linux") throw new Error("needs Linux (/proc/<pid>/stat and /proc/<pid>/status)");
  recorder = await startRecorder();
  const plant = new URL("support/plant-busy-work.mjs", pathToFileURL(`${import.meta.dirname}/`));
  plant.searchParams.set("ms", String(options.plantMs));
  const context: GoalContext = {
    recorder,
    duration: options.duration,
    warmup: options.warmup,
    connections: options.connections,
    plant: options.plantMs > 0 ? plant.href : undefined,
    log,
  };
  for (const name of options.only) sections.push(SECTIONS[name](context));
  const builds = new Map(sections.flatMap((section) => section.builds).map((spec) => [spec.marker, spec]));
  for (const spec of builds.values()) ensureBuild(spec, options.build, log);
  const loadBefore = os.loadavg()[0]!;
  for (const [index, section] of sections.entries()) {
    log(`goals: starting ${options.only[index]}`);
    await section.start();
  }
  for (let round = 1; round <= options.rounds; round++)
    for (const section of sections) {
      recorder.clear();
      await section.round(round);
    }
  const rows: GoalRow[] = sections.flatMap((section) => section.rows());
  await cleanUp();
  console.log(
    `## npm run bench -- goals: ${options.rounds} rounds × ${options.duration} s, ${options.connections} connections` +
      `${options.plantMs ? `, ${options.plantMs} ms of busy work planted a request` : ""}; ` +
      `Node ${process.version}, load average ${loadBefore.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)}\n`,
  );
  console.log(goalsTable(rows));
  const code = exitCode(rows);
  log(
    code
      ? "goals: a held goal was missed by more than its spread"
      : "goals: every held goal met or within its spread",
  );
  process.exitCode = code;
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    log(`goals: ${signal}, stopping servers`);
    void cleanUp().finally(() => process.exit(130));
  });

main().catch((error: unknown) => {
  log(`goals: ${error instanceof Error ? error.message : String(error)}`);
  void cleanUp().finally(() => process.exit(1));
});
