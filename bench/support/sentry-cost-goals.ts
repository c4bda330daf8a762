/**
 * What Sentry may cost the app (bench/README.md, "One request scope"): for each
 * route count and workload of a run, five ratios of medians, each against its
 * goal. Pure functions of the summaries; the table can show an earlier run's
 * figures beside a run's (`npm run bench -- --before <results.json>`).
 */
import { P99_GOAL, ROUTES_DEFAULT_RATE_GOAL, THROUGHPUT_GOALS } from "./goals";
import { DOCUMENTED_SETUP_GOAL } from "./head-to-head";
import { times, type Summary, type TargetId } from "./report";
import { ratio } from "./stats";

type Measure = "reqPerSec" | "cpuMsPerRequest" | "p99Ms";

export interface CostGoal {
  /** The column's head, e.g. `off ÷ bare (req/s) ≥ 0.95`. */
  label: string;
  /** numerator ÷ denominator of the medians of `measure`. */
  of: [TargetId, TargetId];
  measure: Measure;
  /** `min`: the ratio must be at least `bound`; `max`: at most. */
  kind: "min" | "max";
  bound: number;
}

/** In the order of the README's tables; the bounds are the issues' goals (goals.ts), here per row. */
export const COST_GOALS: CostGoal[] = [
  {
    label: "off ÷ bare (req/s)",
    of: ["B", "A"],
    measure: "reqPerSec",
    kind: "min",
    bound: THROUGHPUT_GOALS.B!,
  },
  // CPU, not req/s: the steadier measure where two configurations of the same app are compared.
  {
    label: "off ÷ default (CPU)",
    of: ["B", "D"],
    measure: "cpuMsPerRequest",
    kind: "min",
    bound: ROUTES_DEFAULT_RATE_GOAL,
  },
  {
    label: "100 % ÷ bare (req/s)",
    of: ["C", "A"],
    measure: "reqPerSec",
    kind: "min",
    bound: THROUGHPUT_GOALS.C!,
  },
  {
    label: "100 % ÷ documented (req/s)",
    of: ["C", "E"],
    measure: "reqPerSec",
    kind: "min",
    bound: DOCUMENTED_SETUP_GOAL,
  },
  { label: "p99 default ÷ off", of: ["D", "B"], measure: "p99Ms", kind: "max", bound: P99_GOAL },
];

export interface CostRow {
  routes: number;
  workload: string;
  /** One per goal of COST_GOALS, NaN where a target did not run. */
  values: number[];
}

export function costRows(summaries: Summary[]): CostRow[] {
  const keys = [...new Set(summaries.map((s) => `${s.routes} ${s.workload}`))];
  return keys.map((key) => {
    const mine = summaries.filter((s) => `${s.routes} ${s.workload}` === key);
    const median = (target: TargetId, measure: Measure) =>
      mine.find((s) => s.target === target)?.[measure].median ?? NaN;
    return {
      routes: mine[0]!.routes,
      workload: mine[0]!.workload,
      values: COST_GOALS.map((goal) =>
        ratio(median(goal.of[0], goal.measure), median(goal.of[1], goal.measure)),
      ),
    };
  });
}

export const goalMet = (goal: CostGoal, value: number): boolean | undefined =>
  Number.isFinite(value) ? (goal.kind === "min" ? value >= goal.bound : value <= goal.bound) : undefined;

/** `0.87× missed`, or with an earlier run's figure first: `0.74× → 0.87× missed`. */
function cell(goal: CostGoal, value: number, before?: number): string {
  const met = goalMet(goal, value);
  const mark = met === undefined ? "" : met ? " met" : " **missed**";
  const now = `${times(value)}${mark}`;
  return before === undefined ? now : `${times(before)} → ${now}`;
}

/**
 * Markdown: one row per route count and workload of `after`; with `before`, each
 * cell reads `before → after`. Goals neither run measured (E on React Router) are left out.
 */
export function costTable(after: Summary[], before?: Summary[]): string {
  const rows = costRows(after);
  const earlier = before ? costRows(before) : undefined;
  const measured = COST_GOALS.map((_, i) =>
    [...rows, ...(earlier ?? [])].some((row) => Number.isFinite(row.values[i])),
  );
  const goals = COST_GOALS.filter((_, i) => measured[i]);
  const head = goals.map((goal) => `${goal.label} ${goal.kind === "min" ? "≥" : "≤"} ${goal.bound}`);
  const lines = [
    `| routes | workload | ${head.join(" | ")} |`,
    `| --: | --- | ${goals.map(() => "--:").join(" | ")} |`,
  ];
  for (const row of rows) {
    const then = earlier?.find((r) => r.routes === row.routes && r.workload === row.workload);
    const cells = COST_GOALS.flatMap((goal, i) =>
      measured[i] ? [cell(goal, row.values[i]!, earlier ? (then?.values[i] ?? NaN) : undefined)] : [],
    );
    lines.push(`| ${row.routes} | ${row.workload} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}
