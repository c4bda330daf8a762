/**
 * The benchmark's figures: medians per route count, workload and target, the
 * tables (one row per measurement kind, then req/s and CPU against the route
 * count) and the goals of the issues. Pure functions of the samples.
 */
import { fixed, formatSpread, ratio, spread, type Spread } from "./stats";

export type TargetId = "A" | "B" | "C" | "D" | "E" | "F";

/** One measurement: one workload against one target at one route count, for one round. */
export interface Sample {
  round: number;
  routes: number;
  workload: string;
  target: TargetId;
  requests: number;
  seconds: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  /** VmHWM: the server's peak resident set since it started. */
  peakRssMb: number;
  /** VmRSS at the end of the measurement. */
  rssMb: number;
  /** Requests the server had answered in total (warm-up and earlier measurements included). */
  servedSoFar: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Responses with another status than the workload's, plus errors and timeouts. */
  unexpected: number;
  /** Envelopes the recorder received from this server during the measurement (the SDK may send some later). */
  sentryEnvelopes: number;
}

export interface Summary {
  routes: number;
  workload: string;
  target: TargetId;
  reqPerSec: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  cpuMsPerRequest: Spread;
  peakRssMb: Spread;
  /** Median of this target over the baseline's median, same route count, workload and run. */
  vsBaseline: { reqPerSec: number; p99Ms: number; cpuMsPerRequest: number; peakRssMb: number };
  unexpected: number;
  sentryEnvelopesPerRequest: number;
}

/** What the report needs to know about the run. */
export interface Plan {
  routes: number[];
  workloads: string[];
  targets: { id: TargetId; name: string }[];
}

export function summarize(samples: Sample[], plan: Plan): Summary[] {
  const of = (routes: number, workload: string, target: string) =>
    samples.filter((s) => s.routes === routes && s.workload === workload && s.target === target);
  const summaries: Summary[] = [];
  for (const routes of plan.routes) {
    for (const workload of plan.workloads) {
      const base = of(routes, workload, "A");
      const baseMedian = (key: keyof Sample) => spread(base.map((sample) => sample[key] as number)).median;
      for (const target of plan.targets) {
        const mine = of(routes, workload, target.id);
        const figure = (key: keyof Sample) => spread(mine.map((sample) => sample[key] as number));
        const requests = mine.reduce((sum, sample) => sum + sample.requests, 0);
        summaries.push({
          routes,
          workload,
          target: target.id,
          reqPerSec: figure("reqPerSec"),
          p50Ms: figure("p50Ms"),
          p99Ms: figure("p99Ms"),
          cpuMsPerRequest: figure("cpuMsPerRequest"),
          peakRssMb: figure("peakRssMb"),
          vsBaseline: {
            reqPerSec: ratio(figure("reqPerSec").median, baseMedian("reqPerSec")),
            p99Ms: ratio(figure("p99Ms").median, baseMedian("p99Ms")),
            cpuMsPerRequest: ratio(figure("cpuMsPerRequest").median, baseMedian("cpuMsPerRequest")),
            peakRssMb: ratio(figure("peakRssMb").median, baseMedian("peakRssMb")),
          },
          unexpected: mine.reduce((sum, sample) => sum + sample.unexpected, 0),
          sentryEnvelopesPerRequest: requests
            ? mine.reduce((sum, s) => sum + s.sentryEnvelopes, 0) / requests
            : NaN,
        });
      }
    }
  }
  return summaries;
}

export const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "n/a");

const nameOf = (plan: Plan, id: string) => plan.targets.find((target) => target.id === id)!.name;

/** Every figure of every measurement kind, one row per route count, workload and target. */
export function table(summaries: Summary[], plan: Plan): string {
  const lines = [
    "| routes | workload | target | req/s | ×A | p50 ms | p99 ms | ×A | CPU ms/req | ×A | peak RSS MB | ×A |",
    "| --: | --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
  ];
  for (const s of summaries) {
    const warning = s.unexpected > 0 ? ` ⚠ ${s.unexpected} unexpected` : "";
    lines.push(
      `| ${s.routes} | ${s.workload} | ${nameOf(plan, s.target)}${warning} | ${formatSpread(s.reqPerSec, 0)} | ` +
        `${times(s.vsBaseline.reqPerSec)} | ${formatSpread(s.p50Ms, 1)} | ${formatSpread(s.p99Ms, 1)} | ` +
        `${times(s.vsBaseline.p99Ms)} | ${formatSpread(s.cpuMsPerRequest, 3)} | ${times(s.vsBaseline.cpuMsPerRequest)} | ` +
        `${formatSpread(s.peakRssMb, 0)} | ${times(s.vsBaseline.peakRssMb)} |`,
    );
  }
  return lines.join("\n");
}

/**
 * Growth at a glance: median req/s and CPU ms per request at each route
 * count, and how much more CPU a request costs at the largest count than at
 * the smallest.
 */
export function growthTable(summaries: Summary[], plan: Plan): string {
  const counts = plan.routes;
  const find = (routes: number, workload: string, target: string) =>
    summaries.find((s) => s.routes === routes && s.workload === workload && s.target === target);
  const first = counts[0]!;
  const last = counts[counts.length - 1]!;
  const lines = [
    `| workload | target | ${counts.map((n) => `req/s @${n}`).join(" | ")} | ` +
      `${counts.map((n) => `CPU ms/req @${n}`).join(" | ")} | CPU @${last} ÷ @${first} |`,
    `| --- | --- | ${counts.map(() => "--:").join(" | ")} | ${counts.map(() => "--:").join(" | ")} | --: |`,
  ];
  for (const workload of plan.workloads) {
    for (const target of plan.targets) {
      const row = counts.map((n) => find(n, workload, target.id));
      const growth = ratio(
        row[row.length - 1]?.cpuMsPerRequest.median ?? NaN,
        row[0]?.cpuMsPerRequest.median ?? NaN,
      );
      lines.push(
        `| ${workload} | ${target.name} | ${row.map((s) => fixed(s?.reqPerSec.median ?? NaN, 0)).join(" | ")} | ` +
          `${row.map((s) => fixed(s?.cpuMsPerRequest.median ?? NaN, 3)).join(" | ")} | ${times(growth)} |`,
      );
    }
  }
  return lines.join("\n");
}
