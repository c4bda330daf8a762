/**
 * The server's memory in its container: resident set size idle, and under a
 * short bounded load of document requests on 127.0.0.1 (peak sampled, the
 * kernel's high-water mark, and what `docker stats` reports for the container).
 */
import { load, percentile } from "../../../test-support/load";
import type { Container } from "./container";
import { docker } from "./docker";

const LOAD = { total: 3_000, concurrency: 16 };

const kib = (value: string | undefined) => Number(/(\d+)/.exec(value ?? "")?.[1] ?? NaN);
const mibOf = (kibibytes: number) => `${(kibibytes / 1024).toFixed(0)} MiB`;

async function dockerStatsMemory(container: Container) {
  return (await docker(["stats", "--no-stream", "--format", "{{.MemUsage}}", container.name])).trim();
}

/** RSS, and its anonymous part (heap and stacks; the rest is mapped files such as node's binary). */
async function rss(container: Container) {
  const status = await container.mainProcessStatus();
  return { rss: kib(status.VmRSS), anon: kib(status.RssAnon), hwm: kib(status.VmHWM) };
}

export async function measureMemory(container: Container): Promise<string> {
  const idle = await rss(container);
  const idleStats = await dockerStatsMemory(container);

  let peak = idle;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const now = await rss(container);
      if (now.rss > peak.rss) peak = now;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const started = performance.now();
  const result = await load(`${container.url}/`, LOAD).finally(() => (sampling = false));
  const seconds = (performance.now() - started) / 1000;
  await sampler;
  const after = await rss(container);
  const loadedStats = await dockerStatsMemory(container);

  const ok = result.statuses.get(200) ?? 0;
  if (ok !== LOAD.total)
    throw new Error(`load: ${ok} of ${LOAD.total} answered 200 (${[...result.statuses]})`);
  return (
    `memory: idle RSS ${mibOf(idle.rss)} (anonymous ${mibOf(idle.anon)}; docker stats ${idleStats}); ` +
    `under load (${LOAD.total} GET / at concurrency ${LOAD.concurrency}, ${(LOAD.total / seconds).toFixed(0)} req/s, ` +
    `p99 ${percentile(result.latencies, 99).toFixed(0)} ms) peak sampled RSS ${mibOf(peak.rss)} ` +
    `(anonymous ${mibOf(peak.anon)}), high-water mark ${mibOf(after.hwm)}, after ${mibOf(after.rss)} ` +
    `(docker stats ${loadedStats})`
  );
}
