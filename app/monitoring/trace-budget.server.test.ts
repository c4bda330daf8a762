import { describe, expect, it } from "vitest";
import { traceBudget } from "./trace-budget.server";
import { decideTrace } from "./trace-sampling.server";

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

interface Arrival {
  time: number;
  /** A continued trace's upstream decision and rate. */
  parent?: { sampled: boolean; rate?: number };
  /** A forged `sample_rand`. */
  sampleRand?: number;
  /** The catch-all or an operational path. */
  neverTraced?: boolean;
}

/** Requests arriving at the given times (ms), each decided as the server decides one. */
function simulate(arrivals: Arrival[], { rate, perSecond }: { rate: number; perSecond: number }) {
  let clock = 0;
  const rates = { budget: traceBudget(perSecond, () => clock), configuredRate: rate };
  const random = seeded(7);
  const decided: { time: number; rate: number; traced: boolean }[] = [];
  for (const arrival of arrivals) {
    clock = arrival.time;
    // An upstream that sampled drew `sample_rand` below its rate.
    const upstreamRate = arrival.parent?.sampled ? (arrival.parent.rate ?? 1) : 1;
    const sampleRand = arrival.sampleRand ?? random() * upstreamRate;
    const decision = decideTrace(
      {
        parentSampled: arrival.parent?.sampled,
        parentSampleRate: arrival.parent?.rate,
        sampleRand,
        traceable: () => !arrival.neverTraced,
      },
      rates,
    );
    decided.push({ time: arrival.time, ...decision, rate: decision.sampleRate });
  }
  const traced = decided.filter((decision) => decision.traced);
  const perWindow = new Map<number, number>();
  for (const { time } of traced)
    perWindow.set(Math.floor(time / 1000), (perWindow.get(Math.floor(time / 1000)) ?? 0) + 1);
  const estimated = traced.reduce((sum, trace) => sum + 1 / trace.rate, 0);
  return { decided, traced, perWindow, estimated };
}

/** `perSecond` arrivals a second for `seconds`, evenly spaced. */
const steady = (perSecond: number, seconds: number, from = 0, shape: Omit<Arrival, "time"> = {}) =>
  Array.from({ length: perSecond * seconds }, (_, i) => ({ ...shape, time: from + (i * 1000) / perSecond }));

const inOrder = (arrivals: Arrival[]) => [...arrivals].sort((a, b) => a.time - b.time);

describe("traceBudget", () => {
  it("under the bound, decides every trace at exactly the configured rate", () => {
    const { decided } = simulate(steady(100, 10), { rate: 0.1, perSecond: 50 });
    expect(new Set(decided.map((decision) => decision.rate))).toEqual(new Set([0.1]));
  });

  it("at 100 %, a page and its fetches, all at once, are each traced", () => {
    // Seven requests within 3 ms, once a second, anywhere in the second.
    const offsets = [0, 5, 480, 990, 997, 250];
    const times = offsets.flatMap((offset, second) =>
      [0, 0, 1, 1, 2, 2, 3].map((ms) => ({ time: second * 1000 + offset + ms })),
    );
    const { traced } = simulate(times, { rate: 1, perSecond: 20 });
    expect(traced).toHaveLength(times.length);
    expect(new Set(traced.map((trace) => trace.rate))).toEqual(new Set([1]));
  });

  it("far above the bound, starts about the bound a second, at most twice it, and Σ 1/rate counts the requests", () => {
    const seconds = 60;
    const times = steady(800, seconds);
    const { traced, perWindow, estimated, decided } = simulate(times, { rate: 0.1, perSecond: 20 });
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(40);
    expect(traced.length / seconds).toBeGreaterThanOrEqual(19);
    expect(traced.length / seconds).toBeLessThanOrEqual(21);
    expect(estimated / times.length).toBeGreaterThan(0.95);
    expect(estimated / times.length).toBeLessThan(1.05);
    // Only an empty bucket gives rate 0, which leaves a request uncounted: rare at a steady pace.
    expect(decided.filter((decision) => decision.rate === 0).length / times.length).toBeLessThan(0.01);
  });

  it("a forged sampled header on every request draws from the same budget", () => {
    const times = steady(800, 30, 0, { parent: { sampled: true } });
    const { traced, perWindow, estimated } = simulate(times, { rate: 0.1, perSecond: 20 });
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(40);
    expect(traced.length / 30).toBeLessThanOrEqual(21);
    expect(estimated / times.length).toBeGreaterThan(0.9);
  });

  it("a forged sample_rand of 0 wins every draw, and still no more than the bucket holds", () => {
    const times = steady(800, 30, 0, { parent: { sampled: true, rate: 1 }, sampleRand: 0 });
    const { traced, perWindow } = simulate(times, { rate: 0.1, perSecond: 20 });
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(40);
    expect(traced.length).toBeLessThanOrEqual(20 + 20 * 30);
  });

  it("arrivals that are never traced leave the rate of real routes alone", () => {
    const flood = steady(2000, 10, 0, { neverTraced: true });
    const real = steady(10, 10, 0.5);
    const { decided, traced } = simulate(inOrder([...flood, ...real]), { rate: 1, perSecond: 20 });
    expect(traced).toHaveLength(real.length);
    expect(new Set(decided.map((decision) => decision.rate))).toEqual(new Set([1]));
  });

  it("a burst after a quiet spell stays within twice the bound in any second", () => {
    const quiet = steady(2, 5);
    const burst = Array.from({ length: 5000 }, (_, i) => ({ time: 5000 + i / 25 }));
    const { perWindow, traced } = simulate([...quiet, ...burst], { rate: 1, perSecond: 20 });
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(40);
    expect(perWindow.get(5)).toBeGreaterThanOrEqual(20);
    expect(traced.length).toBeLessThanOrEqual(10 + 20 + 20 * 1);
  });

  it("a pace that changes is followed: down at once, up within seconds as the demand's memory fades", () => {
    const times = [...steady(20, 10), ...steady(2000, 30, 10_000), ...steady(10, 10, 40_000)];
    const { perWindow, estimated, decided } = simulate(times, { rate: 0.5, perSecond: 20 });
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(40);
    // A hundredfold drop: the demand's estimate fades by e a second, so the configured rate is back in four.
    expect(new Set(decided.slice(-10 * 6).map((decision) => decision.rate))).toEqual(new Set([0.5]));
    expect(estimated / times.length).toBeGreaterThan(0.9);
    expect(estimated / times.length).toBeLessThan(1.1);
  });

  it("a rate of 0 traces nothing", () => {
    const { traced } = simulate(steady(100, 2), { rate: 0, perSecond: 50 });
    expect(traced).toEqual([]);
  });
});
