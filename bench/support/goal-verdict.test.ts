import { describe, expect, it } from "vitest";
import { exitCode, goalsTable, verdict, type GoalRow } from "./goal-verdict";

const atLeast = (values: number[], extra: Partial<GoalRow> = {}): GoalRow => ({
  goal: "CPU/req off ÷ default",
  kind: "min",
  bound: 0.9,
  values,
  ...extra,
});
const atMost = (values: number[]): GoalRow => ({ goal: "p99 ÷ twin", kind: "max", bound: 1.3, values });

describe("verdict", () => {
  it("takes the median over the rounds as the figure and their range as the spread", () => {
    expect(verdict(atLeast([0.95, 0.91, 1.02]))).toMatchObject({
      median: 0.95,
      min: 0.91,
      max: 1.02,
      outcome: "met",
      fails: false,
    });
    expect(verdict(atLeast([0.95, 0.91, 1.02])).spread).toBeCloseTo(0.11);
  });

  it("meets a bound reached exactly, from either side", () => {
    expect(verdict(atLeast([0.9])).outcome).toBe("met");
    expect(verdict(atMost([1.3])).outcome).toBe("met");
  });

  it("does not fail a goal missed by no more than its spread", () => {
    // Median 0.85, 0.05 short; spread 0.8–0.95 = 0.15.
    expect(verdict(atLeast([0.8, 0.85, 0.95]))).toMatchObject({ outcome: "within spread", fails: false });
    // Median 1.4, 0.1 over; spread 1.25–1.45 = 0.2.
    expect(verdict(atMost([1.25, 1.4, 1.45]))).toMatchObject({ outcome: "within spread", fails: false });
  });

  it("fails a goal missed by more than its spread", () => {
    // Median 0.8, 0.1 short; spread 0.78–0.83 = 0.05.
    expect(verdict(atLeast([0.78, 0.8, 0.83]))).toMatchObject({ outcome: "missed", fails: true });
    expect(verdict(atMost([1.6, 1.7, 1.65]))).toMatchObject({ outcome: "missed", fails: true });
    // One round: no spread, so any miss is one.
    expect(verdict(atLeast([0.89]))).toMatchObject({ outcome: "missed", fails: true });
  });

  it("reports an aim's miss without failing the run", () => {
    expect(verdict(atLeast([0.78, 0.8, 0.83], { aim: true }))).toMatchObject({
      outcome: "missed",
      fails: false,
    });
  });

  it("fails a held goal that could not be measured", () => {
    expect(verdict(atLeast([NaN, NaN]))).toMatchObject({ outcome: "n/a", fails: true });
    expect(verdict(atLeast([], { aim: true })).fails).toBe(false);
  });
});

describe("exitCode", () => {
  it("is 1 when any held goal fails, else 0", () => {
    expect(exitCode([atLeast([1]), atMost([1.35, 1.2, 1.4])])).toBe(0);
    expect(exitCode([atLeast([1]), atMost([1.5, 1.6])])).toBe(1);
    expect(exitCode([atLeast([0.5], { aim: true })])).toBe(0);
  });
});

describe("goalsTable", () => {
  it("prints each goal's figure, spread, bound and verdict, in order", () => {
    const table = goalsTable([
      atLeast([0.78, 0.8, 0.83]),
      { goal: "RSS growth", kind: "max", bound: 100, values: [12, 30], digits: 0, unit: "MiB", aim: true },
    ]).split("\n");
    expect(table[0]).toBe("| goal | figure (median) | spread (min–max) | bound | verdict |");
    expect(table[2]).toBe("| CPU/req off ÷ default | 0.80× | 0.05 (0.78–0.83) | ≥ 0.9× | **missed** |");
    expect(table[3]).toBe("| RSS growth | 21 MiB | 18 (12–30) | ≤ 100 MiB | met (aim) |");
  });
});
