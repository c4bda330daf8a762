/**
 * A small closed-loop load generator for tests: `total` requests with
 * `concurrency` in flight, on 127.0.0.1. Returns latencies and statuses.
 */
import { readFileSync } from "node:fs";

export interface LoadResult {
  latencies: number[];
  statuses: Map<number, number>;
  bodies: string[];
}

export async function load(
  url: string,
  {
    total,
    concurrency = 10,
    keepBodies = false,
  }: { total: number; concurrency?: number; keepBodies?: boolean },
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const bodies: string[] = [];
  let next = 0;
  async function worker() {
    while (next < total) {
      next++;
      const started = performance.now();
      const response = await fetch(url);
      const body = await response.text();
      latencies.push(performance.now() - started);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (keepBodies) bodies.push(body);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, statuses, bodies };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * CPU time a process has used so far, in ms (Linux: user + system time from
 * /proc/<pid>/stat, in clock ticks of 10 ms). Unlike latency, a process's own
 * CPU time hardly moves when other processes load the machine.
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident set size of a process in MiB (Linux). */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}
