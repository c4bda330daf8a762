/**
 * Sentry's cost goals (bench/README.md, "Goals"), a pure function of the per-round figures that
 * bench/support/goals-sentry-cost.ts measures: each target's req/s, CPU a request and p99 per route
 * count and workload (`<routes> <workload> <target> <rps|cpu|p99>`), and its peak RSS
 * (`<routes>  <target> peak`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { PerRound } from "./goal-run";
import type { GoalRow } from "./goal-verdict";
import { FRAMEWORK } from "../../test-support/framework";
import { DOCUMENTED_SETUP_GOAL } from "./head-to-head";
import type { TargetId } from "./report";
import { ROOT } from "./servers";

export const COST_ROUTES = [1, 300];
export const COST_WORKLOAD_NAMES: Record<string, string> = {
  "doc-item": "document",
  "data-item": "single fetch",
};
export const costKey = (routes: number, workload: string, id: TargetId, what: string) =>
  `${routes} ${workload} ${id} ${what}`;

/** The pod's memory request (deploy/kubernetes/deployment.yaml), in MiB: the default's peak must fit. */
function podMemoryRequestMib(): number {
  const yaml = readFileSync(path.join(ROOT, "deploy/kubernetes/deployment.yaml"), "utf8");
  return Number(/requests:[^]*?memory:\s*"?(\d+)Mi/.exec(yaml)?.[1] ?? NaN);
}

type Measure = "rps" | "cpu" | "p99";

interface CostGoal {
  text: string;
  kind: "min" | "max";
  bound: number;
  /** Round by round, the first target's figure over the second's. */
  of: [TargetId, TargetId];
  measure: Measure;
  /** The route counts it applies to (default both). */
  routes?: number[];
  /** Where the docs record it as not met yet: an aim there, reported, never failing the run. */
  aim?: (routes: number, workload: string) => boolean;
}

/**
 * The aims, from bench/README.md: no cap or rate of the default reaches 0.9 of Sentry off ("What the
 * cap carries of the default's cost"; 300 routes keep the floor of 0.83 seen there); 100 % against
 * bare and the documented setup at 1 route ("The goals before and after, both trees"), and the
 * single fetch's p99 at the default (1.37–1.47× there, at autocannon's 1 ms resolution).
 */
const COST_GOALS: CostGoal[] = [
  { text: "req/s Sentry off ÷ bare", kind: "min", bound: 0.95, of: ["B", "A"], measure: "rps" },
  {
    text: "CPU/req Sentry off ÷ default",
    kind: "min",
    bound: 0.9,
    of: ["B", "D"],
    measure: "cpu",
    aim: () => true,
  },
  {
    text: "CPU/req Sentry off ÷ default (floor)",
    kind: "min",
    bound: 0.83,
    of: ["B", "D"],
    measure: "cpu",
    routes: [300],
  },
  {
    text: "p99 default ÷ Sentry off",
    ...{ kind: "max", bound: 1.3, of: ["D", "B"], measure: "p99" },
    aim: (_, workload) => workload === "data-item",
  },
  {
    text: "req/s 100 % ÷ bare",
    kind: "min",
    bound: 0.7,
    of: ["C", "A"],
    measure: "rps",
    aim: (routes) => routes === 1,
  },
  {
    text: "req/s 100 % ÷ documented",
    ...{ kind: "min", bound: DOCUMENTED_SETUP_GOAL, of: ["C", "E"], measure: "rps" },
    aim: (routes) => routes === 1,
  },
  // The floor: the SDK loaded and on, tracing nothing; not met on either tree ("The floor").
  {
    text: "CPU/req Sentry off ÷ rate 0",
    ...{ kind: "min", bound: 0.95, of: ["B", "F"], measure: "cpu" },
    aim: () => true,
  },
  // Route matching, patched (decision 0030): bare Remix's request grows with the routes, the app's far less.
  // React Router 8 is not patched (decision 0071): there both match alike, and no such goal is set.
  {
    text: "CPU/req bare ÷ Sentry off",
    ...{ kind: "min", bound: 2, of: ["A", "B"], measure: "cpu" },
    routes: FRAMEWORK === "remix-2" ? [300] : [],
  },
];

/** One row per goal, route count and workload, then the memory rows of each route count. */
export function costGoalRows(figures: PerRound, targets: readonly TargetId[]): GoalRow[] {
  const rows: GoalRow[] = [];
  const at = (routes: number) => `${routes} route${routes === 1 ? "" : "s"}`;
  for (const routes of COST_ROUTES) {
    for (const [w, name] of Object.entries(COST_WORKLOAD_NAMES)) {
      for (const goal of COST_GOALS) {
        if (!(goal.routes ?? COST_ROUTES).includes(routes) || !goal.of.every((id) => targets.includes(id)))
          continue;
        const [a, b] = goal.of.map((id) => costKey(routes, w, id, goal.measure)) as [string, string];
        rows.push({
          goal: `${at(routes)}, ${name}: ${goal.text}`,
          kind: goal.kind,
          bound: goal.bound,
          values: figures.ratio(a, b),
          aim: goal.aim?.(routes, w) ?? false,
        });
      }
      if (routes === COST_ROUTES[1])
        rows.push({
          goal: `${at(routes)} against 1, ${name}: CPU/req Sentry off (stretch)`,
          kind: "max",
          bound: 1.5,
          values: figures.ratio(costKey(routes, w, "B", "cpu"), costKey(COST_ROUTES[0]!, w, "B", "cpu")),
          aim: true,
        });
    }
    rows.push({
      goal: `${at(routes)}: peak RSS under load, default ÷ Sentry off`,
      kind: "max",
      bound: 1.3,
      values: figures.ratio(costKey(routes, "", "D", "peak"), costKey(routes, "", "B", "peak")),
    });
    rows.push({
      goal: `${at(routes)}: peak RSS under load, default, against the pod's memory request`,
      kind: "max",
      bound: podMemoryRequestMib(),
      values: figures.of(costKey(routes, "", "D", "peak")),
      digits: 0,
      unit: "MiB",
    });
  }
  return rows;
}
