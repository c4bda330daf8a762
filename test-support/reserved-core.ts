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
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const cores = os.availableParallelism();
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

/** Where the Playwright run (the workers' parent) notes that a worker holds the reserved core: its pid. */
const noteOf = (runner = process.ppid) => path.join(os.tmpdir(), `scaffold-e2e-reserved-core-${runner}`);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * One holder of the reserved core on the machine: two test runs side by side (a developer's two
 * trees; `.ci/run` proves the upgraded tree and day one's in turn) would each pin their cost specs
 * to the same core, and each get half of it. The second waits for the first's cost specs to end;
 * a holder that died frees it.
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

/** Every descendant of `root`, from /proc: each process's parent is the fourth field of its stat. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  const found: number[] = [];
  for (let queue = [root]; queue.length > 0;) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
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
 * every other process of the Playwright run off it. Returns the release, for the worker's end.
 */
export async function reserveCore(): Promise<() => void> {
  await claimMachineCore();
  const note = noteOf();
  writeFileSync(note, String(process.pid));
  pin([process.pid], RESERVED);
  pin(
    descendants(process.ppid).filter((pid) => pid !== process.pid),
    OTHERS,
  );
  return () => {
    rmSync(note, { force: true });
    rmSync(CLAIM, { force: true });
    pin([process.ppid, ...descendants(process.ppid)], ALL);
  };
}

/** For every other worker, at its start: off the reserved core while a live worker holds it. */
export function keepOffReservedCore(): void {
  const note = noteOf();
  if (!existsSync(note)) return;
  const holder = Number(readFileSync(note, "utf8"));
  if (!alive(holder)) return;
  pin([process.pid, ...descendants(process.pid)], OTHERS);
  // Released while this worker pinned itself: it may use every core after all.
  if (!existsSync(note)) pin([process.pid, ...descendants(process.pid)], ALL);
}
