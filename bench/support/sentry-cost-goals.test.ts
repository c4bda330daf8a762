import { describe, expect, it } from "vitest";
import { PerRound } from "./goal-run";
import { exitCode, verdict } from "./goal-verdict";
import type { TargetId } from "./report";
import { COST_ROUTES, COST_WORKLOAD_NAMES, costGoalRows, costKey } from "./sentry-cost-goals";

const ALL: TargetId[] = ["A", "B", "C", "D", "E", "F"];

/** Two rounds of figures: every target alike, but the default and rate 0 cost `defaultCpu` and `floorCpu` ms a request to 1 ms. */
function figures(defaultCpu: number, floorCpu = 1): PerRound {
  const all = new PerRound();
  for (let round = 0; round < 2; round++)
    for (const routes of COST_ROUTES) {
      for (const id of ALL) {
        for (const workload of Object.keys(COST_WORKLOAD_NAMES)) {
          // Bare Remix's request grows with the routes (decision 0030); C serves twice E.
          all.add(
            costKey(routes, workload, id, "cpu"),
            id === "D" ? defaultCpu : id === "F" ? floorCpu : id === "A" && routes > 1 ? 3 : 1,
          );
          all.add(costKey(routes, workload, id, "rps"), id === "E" ? 500 : 1000);
          all.add(costKey(routes, workload, id, "p99"), 10);
        }
        all.add(costKey(routes, "", id, "peak"), 200);
      }
    }
  return all;
}

describe("Sentry's cost goals", () => {
  it("holds an app whose default costs what Sentry off does", () => {
    const rows = costGoalRows(figures(1), ALL);
    expect(rows.filter((row) => !row.aim && verdict(row).outcome !== "met").map((row) => row.goal)).toEqual(
      [],
    );
    expect(exitCode(rows)).toBe(0);
  });

  it("fails the 300-route floor of the default, and reports the 0.9 goal as an aim, for a dearer default", () => {
    const rows = costGoalRows(figures(2), ALL);
    const failing = rows.filter((row) => verdict(row).fails).map((row) => row.goal);
    expect(failing).toEqual([
      "300 routes, document: CPU/req Sentry off ÷ default (floor)",
      "300 routes, single fetch: CPU/req Sentry off ÷ default (floor)",
    ]);
    const goal = rows.find((row) => row.goal === "1 route, document: CPU/req Sentry off ÷ default")!;
    expect([goal.aim, verdict(goal).outcome]).toEqual([true, "missed"]);
  });

  it("reports the floor, an aim, missed at both route counts and workloads when rate 0 costs a tenth more", () => {
    const rows = costGoalRows(figures(1, 1.1), ALL);
    const missed = rows.filter((row) => verdict(row).outcome === "missed");
    expect(missed.map((row) => [row.goal, row.aim])).toEqual(
      COST_ROUTES.flatMap((routes) =>
        Object.values(COST_WORKLOAD_NAMES).map((name) => [
          `${routes} route${routes === 1 ? "" : "s"}, ${name}: CPU/req Sentry off ÷ rate 0`,
          true,
        ]),
      ),
    );
    expect(exitCode(rows)).toBe(0);
  });

  it("leaves out the documented setup's goals where the tree has none (React Router 8)", () => {
    const rows = costGoalRows(figures(1), ["A", "B", "C", "D", "F"]);
    expect(rows.some((row) => row.goal.includes("documented"))).toBe(false);
  });
});
