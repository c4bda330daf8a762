/**
 * A small closed-loop load generator for tests: `total` requests with
 * `concurrency` in flight, on 127.0.0.1. Returns latencies and statuses.
 */
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
