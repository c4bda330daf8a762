import { describe, expect, it } from "vitest";
import { inheritedRate, sdkTraceSampler } from "./sdk-trace-sampler.server";
import type { TraceBudget } from "./trace-budget.server";

function counted(rate: number) {
  const counts = { offered: 0, started: 0 };
  const budget: TraceBudget = {
    rateForNewTrace: () => (counts.offered++, rate),
    traceStarted: () => void counts.started++,
  };
  return { budget, counts };
}

describe("sdkTraceSampler", () => {
  it("gives the SDK the rate the request was decided with, once, for that trace only", () => {
    const { budget, counts } = counted(0.5);
    let facts = { traceId: "a".repeat(32), sampleRand: 0.01 };
    const { handOver, sampler } = sdkTraceSampler(budget, () => facts);
    handOver(facts.traceId, 0.0123);
    expect(sampler({})).toBe(0.0123);
    expect(counts.offered).toBe(0);
    // The slot is spent: a later root span is rated by the budget.
    expect(sampler({})).toBe(0.5);
    handOver("b".repeat(32), 0.02);
    facts = { traceId: "c".repeat(32), sampleRand: 0.9 };
    expect(sampler({})).toBe(0.5);
    expect(counts).toEqual({ offered: 2, started: 1 });
  });

  it("keeps a continued trace's decision, whatever was handed over", () => {
    const facts = { traceId: "a".repeat(32), sampleRand: 0.3 };
    const { handOver, sampler } = sdkTraceSampler(counted(0.5).budget, () => facts);
    handOver(facts.traceId, 0.01);
    expect(sampler({ parentSampled: true, parentSampleRate: 0.4 })).toBe(0.4);
    expect(sampler({ parentSampled: true })).toBe(1);
    expect(sampler({ parentSampled: false, parentSampleRate: 0.2 })).toBe(0.2);
  });
});

describe("inheritedRate", () => {
  it("is the upstream rate when sample_rand < rate agrees with the upstream decision", () => {
    expect(inheritedRate(true, 0.4, 0.3)).toBe(0.4);
    expect(inheritedRate(false, 0.2, 0.3)).toBe(0.2);
  });

  it("else 1 or 0, so the SDK still follows the decision", () => {
    expect(inheritedRate(true, 0.1, 0.3)).toBe(1);
    expect(inheritedRate(false, 0.5, 0.3)).toBe(0);
    expect(inheritedRate(true, undefined, 0.99)).toBe(1);
    expect(inheritedRate(false, undefined, 0)).toBe(0);
  });
});
