/**
 * The goals the benchmark reports (bench/README.md): what the scaffold may
 * cost on top of bare Remix, at the smallest route count of the run, and how
 * the cost of a request may grow with the route count, at the largest.
 */
import { DOCUMENTED_SETUP_GOAL, headToHead } from "./head-to-head";
import { type Plan, type Sample, type Summary, type TargetId, times } from "./report";
import { fixed, ratio } from "./stats";
import { WORKLOADS } from "./workloads";

export interface Goal {
  goal: string;
  routes: number;
  target: TargetId;
  measured: string;
  met: boolean | undefined;
}

/** req/s of each target over the baseline's, every workload. */
export const THROUGHPUT_GOALS: Partial<Record<TargetId, number>> = { B: 0.95, C: 0.7, D: 0.9 };
export const P99_GOAL = 1.3;
const RSS_GOAL = 1.3;
const RSS_AFTER_REQUESTS = 10_000;
/** At the largest route count: bare Remix's CPU per request over the app's (Sentry off). */
const ROUTES_VS_BASELINE_GOAL = 2;
/** Stretch: the app's CPU per request at the largest route count over its own at the smallest. */
const ROUTES_GROWTH_STRETCH = 1.5;
/** At every route count: the app at the default sample rate against the app with Sentry off (CPU). */
export const ROUTES_DEFAULT_RATE_GOAL = 0.9;
/**
 * D's transactions over those its rate and per-second cap allow (decision records 0032, 0080): a
 * sanity check that D measures what it claims. Loose: the SDK sends in the background, and what
 * arrives after a measurement is not counted.
 */
const SAMPLED_SHARE_RANGE = [0.5, 1.5] as const;

/** RSS (VmRSS) of a server at the end of the first measurement after which it had served `count` requests. */
function rssAfter(samples: Sample[], routes: number, target: TargetId, count: number): number {
  return (
    samples.find((s) => s.routes === routes && s.target === target && s.servedSoFar >= count)?.rssMb ?? NaN
  );
}

/** D's transactions over the expected: each measurement's traceable requests × `rate`, at most `perSecond` a second. */
function sampledShare(
  samples: Sample[],
  rate: number,
  perSecond: number,
): { share: number; transactions: number; expected: number } {
  const traceable = new Set(WORKLOADS.filter((w) => w.status < 400).map((w) => w.id));
  const mine = samples.filter((s) => s.target === "D");
  const transactions = mine.reduce((sum, s) => sum + s.sentryEnvelopes, 0);
  const expected = mine
    .filter((s) => traceable.has(s.workload))
    .reduce((sum, s) => sum + Math.min(s.requests * rate, s.seconds * perSecond), 0);
  return { share: ratio(transactions, expected), transactions, expected };
}

export function goals(
  summaries: Summary[],
  samples: Sample[],
  plan: Plan,
  defaultSampleRate?: number,
  defaultPerSecond = Number.POSITIVE_INFINITY,
): Goal[] {
  const result: Goal[] = [];
  const has = (id: TargetId) => plan.targets.some((target) => target.id === id);
  const of = (routes: number, target: TargetId) =>
    summaries.filter((s) => s.routes === routes && s.target === target);
  const worst = (values: number[], direction: "min" | "max") => {
    const finite = values.filter(Number.isFinite);
    if (finite.length === 0) return NaN;
    return direction === "min" ? Math.min(...finite) : Math.max(...finite);
  };
  const add = (goal: string, routes: number, target: TargetId, value: number, met: (v: number) => boolean) =>
    result.push({
      goal,
      routes,
      target,
      measured: `worst ${times(value)}`,
      met: Number.isFinite(value) ? met(value) : undefined,
    });

  // What the scaffold costs, at the smallest route count of the run.
  const small = plan.routes[0]!;
  for (const target of plan.targets) {
    const throughputGoal = THROUGHPUT_GOALS[target.id];
    if (throughputGoal !== undefined) {
      const mine = of(small, target.id);
      add(
        `req/s ≥ ${throughputGoal}× A (every workload)`,
        small,
        target.id,
        worst(
          mine.map((s) => s.vsBaseline.reqPerSec),
          "min",
        ),
        (v) => v >= throughputGoal,
      );
      add(
        `p99 ≤ ${P99_GOAL}× A (every workload)`,
        small,
        target.id,
        worst(
          mine.map((s) => s.vsBaseline.p99Ms),
          "max",
        ),
        (v) => v <= P99_GOAL,
      );
    }
    if (target.id === "C" || target.id === "D") {
      const mine = rssAfter(samples, small, target.id, RSS_AFTER_REQUESTS);
      const base = rssAfter(samples, small, "A", RSS_AFTER_REQUESTS);
      const value = ratio(mine, base);
      result.push({
        goal: `RSS after ${RSS_AFTER_REQUESTS} requests ≤ ${RSS_GOAL}× A`,
        routes: small,
        target: target.id,
        measured: Number.isFinite(value)
          ? `${fixed(mine, 0)} MB vs ${fixed(base, 0)} MB = ${times(value)}`
          : `n/a (fewer than ${RSS_AFTER_REQUESTS} requests served)`,
        met: Number.isFinite(value) ? value <= RSS_GOAL : undefined,
      });
    }
  }

  if (has("D") && defaultSampleRate) {
    const { share, transactions, expected } = sampledShare(samples, defaultSampleRate, defaultPerSecond);
    const [low, high] = SAMPLED_SHARE_RANGE;
    result.push({
      goal: `transactions ${low}–${high}× the requests a route served × ${defaultSampleRate}, at most ${defaultPerSecond} a second (every route count)`,
      routes: small,
      target: "D",
      measured: `${transactions} of ${fixed(expected, 0)} expected = ${times(share)}`,
      met: Number.isFinite(share) ? share >= low && share <= high : undefined,
    });
  }

  // The app at 100 % tracing against the documented @sentry/remix setup, at every route count.
  const rows = headToHead(summaries, plan);
  for (const routes of plan.routes) {
    const mine = rows.filter((row) => row.routes === routes);
    if (mine.length === 0) continue;
    const ratios: [string, (row: (typeof mine)[number]) => number][] = [
      ["req/s of C ÷ E", (row) => row.throughputCOverE],
      ["CPU/req of E ÷ C", (row) => row.cpuEOverC],
    ];
    for (const [what, ratio] of ratios) {
      add(
        `${what} ≥ ${DOCUMENTED_SETUP_GOAL} (every workload)`,
        routes,
        "C",
        worst(mine.map(ratio), "min"),
        (v) => v >= DOCUMENTED_SETUP_GOAL,
      );
    }
  }

  const cpu = (routes: number, target: TargetId, workload: string) =>
    summaries.find((s) => s.routes === routes && s.target === target && s.workload === workload)
      ?.cpuMsPerRequest.median ?? NaN;
  /** `CPU/req of <faster> ÷ <target> ≥ goal`, on the worst workload. */
  const cpuRatioAtLeast = (routes: number, faster: TargetId, target: TargetId, goal: number) =>
    add(
      `CPU/req of ${faster} ÷ ${target} ≥ ${goal} (every workload)`,
      routes,
      target,
      worst(
        plan.workloads.map((w) => ratio(cpu(routes, faster, w), cpu(routes, target, w))),
        "min",
      ),
      (v) => v >= goal,
    );
  // The default rate against Sentry off, at every route count (CPU per request: steadier than req/s).
  if (has("B") && has("D")) {
    for (const routes of plan.routes) cpuRatioAtLeast(routes, "B", "D", ROUTES_DEFAULT_RATE_GOAL);
  }

  // How the cost grows with the route count, at the largest.
  const large = plan.routes[plan.routes.length - 1]!;
  if (large === small || !has("B")) return result;
  if (has("A")) cpuRatioAtLeast(large, "A", "B", ROUTES_VS_BASELINE_GOAL);
  add(
    `stretch: CPU/req ≤ ${ROUTES_GROWTH_STRETCH}× its own at ${small} routes (every workload)`,
    large,
    "B",
    worst(
      plan.workloads.map((w) => ratio(cpu(large, "B", w), cpu(small, "B", w))),
      "max",
    ),
    (v) => v <= ROUTES_GROWTH_STRETCH,
  );
  return result;
}

export function goalsTable(list: Goal[], plan: Plan): string {
  const name = (id: string) => plan.targets.find((target) => target.id === id)!.name;
  const mark = (met: boolean | undefined) => (met === undefined ? "n/a" : met ? "met" : "**missed**");
  return [
    "| routes | target | goal | measured | |",
    "| --: | --- | --- | --- | --- |",
    ...list.map((g) => `| ${g.routes} | ${name(g.target)} | ${g.goal} | ${g.measured} | ${mark(g.met)} |`),
  ].join("\n");
}
