/**
 * A core of its own for the cost specs (the e2e suite's "faults" project: latency and CPU of twin
 * servers, compared batch by batch). They used to run after the rest of the suite, alone, leaving
 * a core idle for minutes; they now run beside it, on the last core, while every other process of
 * the Playwright run keeps to the other cores, so the suite's bursts (a browser, a server start)
 * never land in one twin's batch and not the other's. Once they are done, every process of the
 * run may use every core again.
 *
 * Linux only (`taskset`, /proc), two cores or more: elsewhere `canReserveCore()` is false and the
 * config runs the cost specs after the rest, as before (e2e/playwright.config.ts).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { descendants, sharingTmpdir, testRunProcesses } from "./test-run-processes";

// The machine's cores, not this process's: another run's holder may have pinned this one, and the
// run it belongs to, to the others; a worker started there saw one core, and reserved none.
const cores = os.cpus().length || os.availableParallelism();
const ALL = `0-${cores - 1}`;
const RESERVED = String(cores - 1);
const OTHERS = cores > 2 ? `0-${cores - 2}` : "0";

/** Whether this machine can give a process a core of its own. */
export function canReserveCore(): boolean {
  if (process.platform !== "linux" || cores < 2) return false;
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * One holder of the reserved core on the machine: two test runs side by side (`.ci/run` proves the
 * upgraded tree and day one's at once) would each pin their cost specs to the same core, and each
 * get half of it. The second waits for the first's cost specs to end; a holder that died frees it.
 * While it holds the core, the other run keeps off it too (./test-run-processes.ts): its workers,
 * browsers and servers on both cores left the holder's load a fraction of one, and on a slow day
 * its trace-bound minute saw 7 seconds of load above the cap where it needs 10.
 */
const CLAIM = path.join(os.tmpdir(), "scaffold-e2e-reserved-core-holder");
/** The longest a run's cost specs held it on a slow day is about 5 minutes: 3x headroom. */
export const CORE_WAIT_LIMIT_MS = 15 * 60_000;

async function claimMachineCore(): Promise<void> {
  for (;;) {
    try {
      writeFileSync(CLAIM, String(process.pid), { flag: "wx" });
      return;
    } catch {
      let holder = 0;
      try {
        holder = Number(readFileSync(CLAIM, "utf8") || "0");
      } catch {
        continue; // Released while we looked.
      }
      if (holder > 0 && !alive(holder)) rmSync(CLAIM, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Every thread of each of `pids` on `cpus` (a process that exited meanwhile is skipped). */
function pin(pids: number[], cpus: string): void {
  for (const pid of pids) {
    try {
      execFileSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
    } catch {
      // Exited meanwhile.
    }
  }
}

/**
 * For the worker of the cost specs: this process (and what it starts from now on) on the last core,
 * every other process of the Playwright run and of the machine's other test runs off it. Returns
 * the release, for the worker's end.
 */
export async function reserveCore(): Promise<() => void> {
  await claimMachineCore();
  pin([process.pid], RESERVED);
  const own = new Set([process.pid, ...descendants(process.pid)]);
  pin(
    sharingTmpdir([...descendants(process.ppid), ...testRunProcesses()]).filter((pid) => !own.has(pid)),
    OTHERS,
  );
  return () => {
    // Every core again before the claim goes: a next holder pins only after it has the claim.
    pin(sharingTmpdir([process.ppid, ...descendants(process.ppid), ...testRunProcesses()]), ALL);
    rmSync(CLAIM, { force: true });
  };
}

/** The pid of the core's holder, of this run or another, if it lives, else 0. */
function liveHolder(): number {
  try {
    const holder = Number(readFileSync(CLAIM, "utf8"));
    return holder > 0 && alive(holder) ? holder : 0;
  } catch {
    return 0;
  }
}

/**
 * For every other worker, at its start: off the reserved core while a live worker holds it, of
 * this run or of another that started after the holder pinned the others.
 */
export function keepOffReservedCore(): void {
  if (!liveHolder()) return;
  pin([process.pid, ...descendants(process.pid)], OTHERS);
  // Released while this worker pinned itself: it may use every core after all.
  if (!liveHolder()) pin([process.pid, ...descendants(process.pid)], ALL);
}
