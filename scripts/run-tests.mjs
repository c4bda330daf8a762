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
 * process the run starts carries SCAFFOLD_TEST_RUN=<id> in its environment
 * (the e2e harness passes it on to the servers it starts), so the run can find
 * and stop whatever is left: after each step, and on Ctrl-C, SIGTERM, SIGHUP
 * or the death of the npm process that started it.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { stopMarked } from "./process-sweep.mjs";

const MARKER = "SCAFFOLD_TEST_RUN";
/** How long an interrupted step gets to stop its own children (Playwright closes browsers, servers drain). */
const STEP_STOP_GRACE_MS = 20_000;
/** A busy loop never runs longer than this, even if nobody stops it. */
const BUSY_LOOP_MAX_MS = 90 * 60_000;

/** What `npm test` runs: checks first (fast), then builds, then the end-to-end suite. */
const STEPS = ["typecheck", "lint", "lint:docs", "test:unit", "build", "build:e2e", "test:e2e"];

const args = process.argv.slice(2);
const loaded = args[0] === "--loaded";
const named = loaded ? args.slice(1) : args;
const steps = named.length > 0 ? named : STEPS;
const runId = randomUUID();
process.env[MARKER] = runId;

const started = Date.now();
const seconds = (since = started) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
const say = (/** @type {string} */ line) => console.log(`test: ${line}`);

/** @type {import("node:child_process").ChildProcess | undefined} */
let current;
/** @type {import("node:child_process").ChildProcess[]} */
let busyLoops = [];
let interrupted = false;

/** Every process of this run except this one, stopped: TERM, a grace, then KILL. */
async function sweep(/** @type {string} */ when) {
  const exclude = [process.pid, ...busyLoops.map((loop) => /** @type {number} */ (loop.pid))];
  const stopped = await stopMarked(MARKER, runId, { exclude });
  for (const line of stopped) say(`stopped a process left ${when}: ${line}`);
}

async function interrupt(/** @type {NodeJS.Signals} */ signal) {
  if (interrupted) return;
  interrupted = true;
  say(`${signal}: stopping the running step and everything it started`);
  const step = current;
  if (step?.pid && step.exitCode === null && step.signalCode === null) {
    const exited = new Promise((resolve) => step.once("exit", resolve));
    killGroup(step.pid, signal);
    const timer = setTimeout(
      () => killGroup(/** @type {number} */ (step.pid), "SIGKILL"),
      STEP_STOP_GRACE_MS,
    );
    await exited;
    clearTimeout(timer);
  }
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

/** A step is an npm script, maybe with its arguments: `test:e2e --core`. */
function runStep(/** @type {string} */ step) {
  const [script = "", ...args] = step.split(" ");
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])], {
      stdio: ["ignore", "inherit", "inherit"],
      detached: true,
    });
    current = child;
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (loaded) busyLoops = startBusyLoops();
let failed = "";
for (const step of steps) {
  const stepStarted = Date.now();
  say(`${step} …`);
  const code = await runStep(step);
  if (interrupted) await new Promise(() => {}); // interrupt() exits
  say(`${step} ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds(stepStarted)}`);
  await sweep(`by ${step}`);
  if (code !== 0) {
    failed = step;
    break;
  }
}
await stopBusyLoops();
await sweep("at the end");
say(
  `${failed ? `failed at ${failed}` : `all ${steps.length} steps passed`} in ${seconds()}${loaded ? " (loaded)" : ""}`,
);
process.exit(failed ? 1 : 0);
