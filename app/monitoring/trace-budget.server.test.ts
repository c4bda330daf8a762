import { describe, expect, it } from "vitest";
import { traceBudget } from "./trace-budget.server";

/** A seeded generator: each run draws the same `sample_rand`s, so the figures below are reproducible. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Requests arriving at the given times (ms), each decided as the server does: traced iff rand < rate. */
function simulate(times: number[], { rate, perSecond }: { rate: number; perSecond: number }) {
  let clock = 0;
  const budget = traceBudget(rate, perSecond, () => clock);
  const random = seeded(7);
  const rates: number[] = [];
  const traced: { time: number; rate: number }[] = [];
  for (const time of times) {
    clock = time;
    const effective = budget.rateForNewTrace();
    rates.push(effective);
    if (random() < effective) {
      budget.traceStarted();
      traced.push({ time, rate: effective });
    }
  }
  const perWindow = new Map<number, number>();
  for (const { time } of traced)
    perWindow.set(Math.floor(time / 1000), (perWindow.get(Math.floor(time / 1000)) ?? 0) + 1);
  const estimated = traced.reduce((sum, trace) => sum + 1 / trace.rate, 0);
  return { rates, traced, perWindow, estimated };
}

/** `perSecond` requests a second for `seconds`, evenly spaced. */
const steady = (perSecond: number, seconds: number, from = 0) =>
  Array.from({ length: perSecond * seconds }, (_, i) => from + (i * 1000) / perSecond);

describe("traceBudget", () => {
  it("under the cap, decides every new trace at exactly the configured rate", () => {
    const { rates } = simulate(steady(100, 10), { rate: 0.1, perSecond: 50 });
    expect(new Set(rates)).toEqual(new Set([0.1]));
  });

  it("a few requests together, far under the cap, keep the configured rate", () => {
    // A page and its fetches: four requests within 3 ms, once a second, anywhere in the second.
    const offsets = [0, 5, 480, 990, 997, 250];
    const times = offsets.flatMap((offset, second) => [0, 1, 2, 3].map((ms) => second * 1000 + offset + ms));
    const { rates } = simulate(times, { rate: 1, perSecond: 20 });
    expect(new Set(rates)).toEqual(new Set([1]));
  });

  it("far above the cap, starts about the cap a second, never more, and Σ 1/rate counts the requests", () => {
    // 1200 traces: Σ 1/rate's standard error is about 3%.
    const seconds = 60;
    const times = steady(800, seconds);
    const { traced, perWindow, estimated, rates } = simulate(times, { rate: 0.1, perSecond: 20 });
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(20);
    expect(traced.length / seconds).toBeGreaterThanOrEqual(18);
    expect(estimated / times.length).toBeGreaterThan(0.9);
    expect(estimated / times.length).toBeLessThan(1.1);
    // Only a spent budget gives rate 0, which leaves a request uncounted: rare at a steady pace.
    expect(rates.filter((rate) => rate === 0).length / times.length).toBeLessThan(0.05);
    expect(Math.max(...rates)).toBeLessThanOrEqual(0.1);
  });

  it("a burst after a quiet spell stays within the cap", () => {
    const quiet = steady(2, 5);
    const burst = Array.from({ length: 5000 }, (_, i) => 5000 + i / 25);
    const { perWindow } = simulate([...quiet, ...burst], { rate: 1, perSecond: 20 });
    expect(perWindow.get(5)).toBeLessThanOrEqual(20);
    expect(perWindow.get(5)).toBeGreaterThanOrEqual(10);
  });

  it("a pace that changes is followed within a second", () => {
    const times = [...steady(20, 10), ...steady(2000, 30, 10_000), ...steady(20, 10, 40_000)];
    const { perWindow, estimated, rates } = simulate(times, { rate: 0.5, perSecond: 20 });
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(20);
    // Below the cap again, the configured rate is back within a second.
    expect(new Set(rates.slice(-20 * 9))).toEqual(new Set([0.5]));
    expect(estimated / times.length).toBeGreaterThan(0.9);
    expect(estimated / times.length).toBeLessThan(1.1);
  });

  it("a rate of 0 traces nothing", () => {
    const { traced } = simulate(steady(100, 2), { rate: 0, perSecond: 50 });
    expect(traced).toEqual([]);
  });
});
