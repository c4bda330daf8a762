import { describe, expect, it } from "vitest";
import type { Summary, TargetId } from "./report";
import { costRows, costTable, COST_GOALS, goalMet } from "./sentry-cost-goals";

const one = (value: number) => ({ median: value, min: value, max: value, n: 1 });

function summary(target: TargetId, reqPerSec: number, cpu: number, p99: number, routes = 1): Summary {
  return {
    routes,
    workload: "data-item",
    target,
    reqPerSec: one(reqPerSec),
    p50Ms: one(1),
    p99Ms: one(p99),
    cpuMsPerRequest: one(cpu),
    peakRssMb: one(100),
    vsBaseline: { reqPerSec: NaN, p99Ms: NaN, cpuMsPerRequest: NaN, peakRssMb: NaN },
    unexpected: 0,
    sentryEnvelopesPerRequest: 0,
  };
}

// A bare, B off, C 100 %, D default, E documented.
const run = [
  summary("A", 1000, 0.3, 10),
  summary("B", 960, 0.32, 11),
  summary("C", 500, 0.8, 20),
  summary("D", 800, 0.4, 15),
  summary("E", 400, 1.2, 40),
];

describe("Sentry's cost goals", () => {
  it("takes each ratio of the medians the goal names", () => {
    const [row] = costRows(run);
    expect(row).toMatchObject({ routes: 1, workload: "data-item" });
    const byLabel = Object.fromEntries(COST_GOALS.map((goal, i) => [goal.label, row!.values[i]]));
    expect(byLabel["off ÷ bare (req/s)"]).toBeCloseTo(0.96);
    expect(byLabel["off ÷ default (CPU)"]).toBeCloseTo(0.8);
    expect(byLabel["100 % ÷ bare (req/s)"]).toBeCloseTo(0.5);
    expect(byLabel["100 % ÷ documented (req/s)"]).toBeCloseTo(1.25);
    expect(byLabel["p99 default ÷ off"]).toBeCloseTo(15 / 11);
  });

  it("reads a bound as a floor or a ceiling, and a missing figure as unknown", () => {
    const [offBare, , , , p99] = COST_GOALS;
    expect([goalMet(offBare!, 0.95), goalMet(offBare!, 0.94)]).toEqual([true, false]);
    expect([goalMet(p99!, 1.3), goalMet(p99!, 1.31)]).toEqual([true, false]);
    expect(goalMet(p99!, NaN)).toBeUndefined();
  });

  it("marks each cell, and shows an earlier run's figure first", () => {
    const table = costTable(run);
    expect(table).toContain(
      "| 1 | data-item | 0.96× met | 0.80× **missed** | 0.50× **missed** | 1.25× **missed** | 1.36× **missed** |",
    );
    const before = [summary("A", 1000, 0.3, 10), summary("B", 900, 0.32, 11), ...run.slice(2)];
    expect(costTable(run, before)).toContain("| 1 | data-item | 0.90× → 0.96× met |");
  });

  it("leaves out a goal neither run measured (no documented setup on React Router)", () => {
    const table = costTable(run.filter((s) => s.target !== "E"));
    expect(table).not.toContain("documented");
    expect(table.split("\n")[2]!.split("|")).toHaveLength(2 + 4 + 2);
  });

  it("gives n/a for a row the earlier run did not have", () => {
    expect(costTable(run, [summary("B", 1, 1, 1, 300)])).toContain("| 1 | data-item | n/a → 0.96× met |");
  });
});
