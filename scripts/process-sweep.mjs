// @ts-check
/**
 * Finds and stops the processes that carry a marker variable in their
 * environment (Linux: /proc/<pid>/environ). Children inherit the environment,
 * so a marker set by the test runner reaches every process the run starts,
 * however deep, detached or re-parented it is.
 */
import { readdirSync, readFileSync } from "node:fs";

/** How long marked processes get to exit after SIGTERM before SIGKILL. */
const TERM_GRACE_MS = 5_000;

/**
 * The pids (with their command lines) whose environment holds `name=value`, or with `prefix`,
 * a value that starts with `value` (a run's marker, whichever of its steps set the rest).
 */
export function findMarked(/** @type {string} */ name, /** @type {string} */ value, { prefix = false } = {}) {
  const needle = `\0${name}=${value}${prefix ? "" : "\0"}`;
  /** @type {{ pid: number; command: string }[]} */
  const found = [];
  let entries = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found; // not Linux: nothing to find this way
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!`\0${readFileSync(`/proc/${entry}/environ`, "latin1")}`.includes(needle)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, "latin1").replaceAll("\0", " ").trim();
      // A zombie has no command line: it is gone already, only not yet reaped by its parent.
      if (command) found.push({ pid: Number(entry), command });
    } catch {
      // Exited while we looked, or not ours to read.
    }
  }
  return found;
}

/** Stops every marked process but `exclude`: SIGTERM, up to TERM_GRACE_MS, then SIGKILL. Returns what it stopped. */
export async function stopMarked(
  /** @type {string} */ name,
  /** @type {string} */ value,
  { exclude = /** @type {number[]} */ ([]), prefix = false } = {},
) {
  const targets = findMarked(name, value, { prefix }).filter(({ pid }) => !exclude.includes(pid));
  const signal = (/** @type {number} */ pid, /** @type {NodeJS.Signals} */ sig) => {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  };
  for (const { pid } of targets) signal(pid, "SIGTERM");
  const deadline = Date.now() + TERM_GRACE_MS;
  const alive = () => {
    const now = new Set(findMarked(name, value, { prefix }).map(({ pid }) => pid));
    return targets.filter(({ pid }) => now.has(pid));
  };
  while (alive().length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  for (const { pid } of alive()) signal(pid, "SIGKILL");
  return targets.map(({ pid, command }) => `${pid} ${command.slice(0, 160)}`);
}
