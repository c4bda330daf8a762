/**
 * The verdict of `npm run bench -- goals` (bench/README.md, "Goals"): each goal's figure is the
 * median of its per-round values, its spread their range (max − min). A goal on the wrong side of
 * its bound by no more than that spread is not told apart from the run's noise; by more, it is
 * missed, and a missed goal fails the run unless it is an aim (a goal the docs record as not met).
 */
import { fixed, spread } from "./stats";

export interface GoalRow {
  /** What is compared, e.g. `1 route, document: CPU/req Sentry off ÷ default`. */
  goal: string;
  /** `min`: the figure must be at least `bound`; `max`: at most. */
  kind: "min" | "max";
  bound: number;
  /** One per round. */
  values: number[];
  /** Decimals to print (default 2). */
  digits?: number;
  /** Printed after the figure and the bound, e.g. `MiB`; ratios have none (`×`). */
  unit?: string;
  /** A goal the docs record as not met yet: reported, never failing the run. */
  aim?: boolean;
}

export type Outcome = "met" | "within spread" | "missed" | "n/a";

export interface Verdict {
  median: number;
  min: number;
  max: number;
  /** max − min over the rounds (0 with one round). */
  spread: number;
  outcome: Outcome;
  /** Missed, and held (not an aim): the run exits 1. */
  fails: boolean;
}

export function verdict(row: GoalRow): Verdict {
  const { median, min, max, n } = spread(row.values);
  const range = n > 0 ? max - min : NaN;
  if (n === 0) return { median, min, max, spread: range, outcome: "n/a", fails: !row.aim };
  const shortfall = row.kind === "min" ? row.bound - median : median - row.bound;
  const outcome: Outcome = shortfall <= 0 ? "met" : shortfall <= range ? "within spread" : "missed";
  return { median, min, max, spread: range, outcome, fails: outcome === "missed" && !row.aim };
}

/** Markdown: goal, figure, spread, bound, verdict; one row per goal, in the given order. */
export function goalsTable(rows: GoalRow[]): string {
  const lines = [
    "| goal | figure (median) | spread (min–max) | bound | verdict |",
    "| --- | --: | --: | --- | --- |",
  ];
  for (const row of rows) {
    const v = verdict(row);
    const digits = row.digits ?? 2;
    const unit = row.unit ? ` ${row.unit}` : "×";
    const range =
      v.outcome === "n/a"
        ? "n/a"
        : `${fixed(v.spread, digits)} (${fixed(v.min, digits)}–${fixed(v.max, digits)})`;
    const mark = v.outcome === "missed" ? "**missed**" : v.outcome;
    lines.push(
      `| ${row.goal} | ${fixed(v.median, digits)}${unit} | ${range} | ` +
        `${row.kind === "min" ? "≥" : "≤"} ${row.bound}${unit} | ${mark}${row.aim ? " (aim)" : ""} |`,
    );
  }
  return lines.join("\n");
}

/** 1 when a held goal is missed by more than its spread (or could not be measured), else 0. */
export function exitCode(rows: GoalRow[]): 0 | 1 {
  return rows.some((row) => verdict(row).fails) ? 1 : 0;
}
