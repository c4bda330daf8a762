/**
 * A small closed-loop load for tests: `total` requests with `concurrency` in flight, on 127.0.0.1.
 * Returns what came back, never how long it took: speed is the benchmark's (bench/README.md).
 */
export interface LoadResult {
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
  const statuses = new Map<number, number>();
  const bodies: string[] = [];
  let next = 0;
  async function worker() {
    while (next < total) {
      next++;
      const response = await fetch(url);
      const body = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (keepBodies) bodies.push(body);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { statuses, bodies };
}
