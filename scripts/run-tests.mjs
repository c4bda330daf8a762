// @ts-check
/**
 * Runs the test steps (`npm run <step>` each, in order) and makes sure
 * nothing they start outlives the run.
 *
 *   npm test                                   every step of STEPS
 *   npm test -- --loaded                       the same beside one busy loop per core
 *   node scripts/run-tests.mjs lint test:unit  only the steps named
 *   node scripts/run-tests.mjs "test:e2e --core"   a step with its script's arguments
 *
 * Why a runner instead of `a && b && c` in package.json: npm does not pass
 * SIGTERM on to its script, and a shell between steps dies without stopping
 * its child, so an interrupted `npm test` used to leave app servers, browsers
 * and load running. Here every step runs in its own process group, and every
 * process the run starts carries SCAFFOLD_TEST_RUN=<id>/<step> in its environment
 * (the e2e harness passes it on to the servers it starts), so the run can find
 * and stop whatever is left: after each step, and on Ctrl-C, SIGTERM, SIGHUP
 * or the death of the npm process that started it.
 *
 * The checks and builds do not depend on each other and each leaves a core idle much of the
 * time (tsc and ESLint use one), so they run two at a time, each step's output printed whole
 * when it ends. A step that starts servers (ALONE) waits for every step before it and runs
 * alone, its output live: the e2e suite needs both builds, and its time-outs and cost ratios
 * were sized with nothing of the run beside it.
 */
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { stopMarked } from "./process-sweep.mjs";

const MARKER = "SCAFFOLD_TEST_RUN";
/** How long an interrupted step gets to stop its own children (Playwright closes browsers, servers drain). */
const STEP_STOP_GRACE_MS = 20_000;
/** A busy loop never runs longer than this, even if nobody stops it. */
const BUSY_LOOP_MAX_MS = 90 * 60_000;
/** Steps that run side by side at most: two cores' worth. */
const SIDE_BY_SIDE = 2;
/** Steps that start servers or a browser: each runs alone, after every step before it. */
const ALONE = /^test:(e2e|smoke|deploy)\b/;

/** What `npm test` runs: checks and builds (two at a time), then the end-to-end suite. */
const STEPS = ["test:unit", "typecheck", "lint", "lint:docs", "build", "build:e2e", "test:e2e"];

const args = process.argv.slice(2);
const loaded = args[0] === "--loaded";
const named = loaded ? args.slice(1) : args;
const steps = named.length > 0 ? named : STEPS;
const runId = /** @type {string} */ (randomUUID());
process.env[MARKER] = runId;
// Node's on-disk cache of compiled modules, for every process of the run (the servers, Vite and
// the test workers load the same packages dozens of times): bench/README.md, "Node's compile
// cache in the suite". Under node_modules/, so it goes with the packages it was made from.
process.env.NODE_COMPILE_CACHE ??= path.resolve(import.meta.dirname, "../node_modules/.cache/node-compile");

const started = Date.now();
const seconds = (since = started) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
const say = (/** @type {string} */ line) => console.log(`test: ${line}`);

/** @type {Set<import("node:child_process").ChildProcess>} */
const running = new Set();
/** @type {import("node:child_process").ChildProcess[]} */
let busyLoops = [];
let interrupted = false;

/** Every process of `marker` (one step's, or by default the whole run's) except this one: TERM, a grace, then KILL. */
async function sweep(/** @type {string} */ when, marker = runId) {
  const exclude = [process.pid, ...busyLoops.map((loop) => /** @type {number} */ (loop.pid))];
  const stopped = await stopMarked(MARKER, marker, { exclude, prefix: marker === runId });
  for (const line of stopped) say(`stopped a process left ${when}: ${line}`);
}

/** Stops a step's process group: `signal`, then SIGKILL after the grace; resolves once it exited. */
async function stopStep(
  /** @type {import("node:child_process").ChildProcess} */ step,
  /** @type {NodeJS.Signals} */ signal,
) {
  if (!step.pid || step.exitCode !== null || step.signalCode !== null) return;
  const exited = new Promise((resolve) => step.once("exit", resolve));
  killGroup(step.pid, signal);
  const timer = setTimeout(() => killGroup(/** @type {number} */ (step.pid), "SIGKILL"), STEP_STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

async function interrupt(/** @type {NodeJS.Signals} */ signal) {
  if (interrupted) return;
  interrupted = true;
  say(`${signal}: stopping the running step(s) and everything they started`);
  await Promise.all([...running].map((step) => stopStep(step, signal)));
  await stopBusyLoops();
  await sweep("after the interruption");
  process.exit(128 + (os.constants.signals[signal] ?? 15));
}

function killGroup(/** @type {number} */ pid, /** @type {NodeJS.Signals} */ signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
  process.on(signal, () => void interrupt(signal));
}
// npm does not pass SIGTERM on: when the npm that started this run is gone, stop as if told to.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void interrupt("SIGTERM");
}, 500).unref();

function startBusyLoops() {
  const cores = os.availableParallelism();
  say(
    `--loaded: ${cores} busy-loop process(es) run beside the suite (at most ${BUSY_LOOP_MAX_MS / 60_000} min)`,
  );
  // Each loop also stops when this runner is gone, whatever ended it.
  const loop = `const end = Date.now() + ${BUSY_LOOP_MAX_MS}, parent = process.ppid;
    while (Date.now() < end && process.ppid === parent) for (let i = 0; i < 1e6; i++);`;
  return Array.from({ length: cores }, () => spawn(process.execPath, ["-e", loop], { stdio: "ignore" }));
}

/** Kills the busy loops and waits until they are gone, so the sweep after it does not meet them. */
async function stopBusyLoops() {
  const loops = busyLoops;
  busyLoops = [];
  await Promise.all(
    loops.map(
      (loop) =>
        new Promise((resolve) => {
          if (loop.exitCode !== null || loop.signalCode !== null) return resolve(undefined);
          loop.once("exit", resolve);
          loop.kill("SIGKILL");
        }),
    ),
  );
}

/**
 * A step is an npm script, maybe with its arguments: `test:e2e --core`. Its processes carry
 * `marker`. Live output, or (`buffered`) its stdout and stderr kept, in order, for the caller.
 */
function runStep(/** @type {string} */ step, /** @type {string} */ marker, buffered = false) {
  const [script = "", ...args] = step.split(" ");
  const child = spawn("npm", ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])], {
    stdio: ["ignore", buffered ? "pipe" : "inherit", buffered ? "pipe" : "inherit"],
    detached: true,
    env: { ...process.env, [MARKER]: marker },
  });
  /** @type {Buffer[]} */
  const output = [];
  child.stdout?.on("data", (chunk) => output.push(chunk));
  child.stderr?.on("data", (chunk) => output.push(chunk));
  running.add(child);
  /** @type {Promise<{ code: number; output: string }>} */
  const done = new Promise((resolve) =>
    child.once("close", (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString("utf8") });
    }),
  );
  return { child, done };
}

/** The steps in the order given, cut into phases: a run of steps that may share the machine, or one ALONE step. */
function phases(/** @type {string[]} */ list) {
  /** @type {string[][]} */
  const result = [];
  for (const step of list) {
    const last = result.at(-1);
    if (ALONE.test(step) || !last || ALONE.test(last[0] ?? "")) result.push([step]);
    else last.push(step);
  }
  return result;
}

let failed = "";
let index = 0;
/** Steps stopped because another beside them failed. */
/** @type {Set<import("node:child_process").ChildProcess>} */
const stoppedByFailure = new Set();

/** Runs one step to its end: its output (when buffered), its time, its sweep. */
async function run(/** @type {string} */ step, /** @type {boolean} */ buffered) {
  const stepStarted = Date.now();
  const marker = `${runId}/${index++}`;
  say(`${step} …${buffered ? " (beside another step: its output when it ends)" : ""}`);
  const { child, done } = runStep(step, marker, buffered);
  const { code, output } = await done;
  if (output) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
  if (interrupted) await new Promise(() => {}); // interrupt() exits
  const outcome =
    code === 0
      ? "passed"
      : stoppedByFailure.has(child)
        ? `stopped (${failed} failed)`
        : `FAILED (exit ${code})`;
  say(`${step} ${outcome} in ${seconds(stepStarted)}`);
  await sweep(`by ${step}`, marker);
  if (code !== 0 && !failed) {
    failed = step;
    // The steps beside it end now: the run has failed.
    for (const other of running) stoppedByFailure.add(other);
    await Promise.all([...running].map((other) => stopStep(other, "SIGTERM")));
  }
}

if (loaded) busyLoops = startBusyLoops();
for (const phase of phases(steps)) {
  if (failed) break;
  if (phase.length === 1) {
    await run(/** @type {string} */ (phase[0]), false);
    continue;
  }
  // Two at a time, in order: the next starts as soon as one ends.
  const queue = [...phase];
  const lane = async () => {
    for (let step = queue.shift(); step && !failed; step = queue.shift()) await run(step, true);
  };
  await Promise.all(Array.from({ length: Math.min(SIDE_BY_SIDE, phase.length) }, lane));
}
await stopBusyLoops();
await sweep("at the end");
say(
  `${failed ? `failed at ${failed}` : `all ${steps.length} steps passed`} in ${seconds()}${loaded ? " (loaded)" : ""}`,
);
process.exit(failed ? 1 : 0);
