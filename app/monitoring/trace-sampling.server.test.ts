import { describe, expect, it } from "vitest";
import {
  decideTrace,
  inheritedRate,
  requestSampling,
  sdkTraceSampler,
  type SamplingInput,
} from "./trace-sampling.server";
import type { TraceBudget } from "./trace-budget.server";

const input = (overrides: Partial<SamplingInput>): SamplingInput => ({
  traceable: () => true,
  parentSampled: undefined,
  parentSampleRate: undefined,
  sampleRand: 0.5,
  ...overrides,
});

/** A budget that always offers `share`, counting what it is told. */
function fixedBudget(share: number, configuredRate = 0.1) {
  const counts = { demanded: 0, spent: 0 };
  const budget: TraceBudget = {
    share: () => share,
    demanded: () => void counts.demanded++,
    spend: () => void counts.spent++,
  };
  return { rates: { budget, configuredRate }, counts };
}

const traced = (overrides: Partial<SamplingInput>, configuredRate = 0.1, share = 1) =>
  decideTrace(input(overrides), fixedBudget(share, configuredRate).rates).traced;

describe("decideTrace", () => {
  it("samples a new trace by its random number, as the SDK's sampler does, and says at what rate", () => {
    expect(traced({ sampleRand: 0.05 })).toBe(true);
    expect(traced({ sampleRand: 0.1 })).toBe(false);
    expect(traced({ sampleRand: 0.99 }, 1)).toBe(true);
    expect(traced({ sampleRand: 0 }, 0)).toBe(false);
    expect(decideTrace(input({ sampleRand: 0.5 }), fixedBudget(0.25, 1).rates)).toEqual({
      traced: false,
      sampleRate: 0.25,
    });
  });

  it("counts only what would be traced with the budget to spare, and spends only on what it traces", () => {
    const { rates, counts } = fixedBudget(0.5);
    decideTrace(input({ sampleRand: 0.01 }), rates);
    decideTrace(input({ sampleRand: 0.07 }), rates);
    decideTrace(input({ sampleRand: 0.5 }), rates);
    decideTrace(input({ sampleRand: 0.01, traceable: () => false }), rates);
    expect(counts).toEqual({ demanded: 2, spent: 1 });
  });

  it("draws a continued trace from the same budget, at the upstream's rate times the share", () => {
    const { rates, counts } = fixedBudget(0.5);
    expect(decideTrace(input({ parentSampled: true, sampleRand: 0.3 }), rates)).toEqual({
      traced: true,
      sampleRate: 0.5,
    });
    expect(
      decideTrace(input({ parentSampled: true, parentSampleRate: 0.4, sampleRand: 0.3 }), rates),
    ).toEqual({ traced: false, sampleRate: 0.2 });
    expect(counts).toEqual({ demanded: 2, spent: 1 });
    expect(traced({ parentSampled: false, sampleRand: 0 }, 1)).toBe(false);
  });

  it("an empty budget traces nothing, whatever the header says", () => {
    expect(traced({ parentSampled: true, sampleRand: 0 }, 1, 0)).toBe(false);
  });

  it("never traces what would be dropped: the catch-all and operational paths", () => {
    expect(traced({ traceable: () => false, parentSampled: true, sampleRand: 0 }, 1)).toBe(false);
  });

  it("names the request only when it would be traced", () => {
    const never = () => {
      throw new Error("an untraced request needs no name");
    };
    expect(traced({ traceable: never, sampleRand: 0.5 }, 0.1)).toBe(false);
    expect(traced({ traceable: never, parentSampled: false }, 1)).toBe(false);
  });
});

describe("requestSampling", () => {
  const never = () => {
    throw new Error("no fresh number expected");
  };

  it("takes a new trace's number from the request's scope, where the SDK drew it", () => {
    expect(requestSampling({ sampleRand: 0.42 }, never)).toEqual({
      parentSampled: undefined,
      sampleRand: 0.42,
    });
  });

  it("follows a continued trace's decision, with the upstream's number", () => {
    expect(requestSampling({ sampled: true, sampleRand: 0.7 }, never)).toEqual({
      parentSampled: true,
      sampleRand: 0.7,
    });
    expect(requestSampling({ sampled: false, sampleRand: 0.05 }, never)).toEqual({
      parentSampled: false,
      sampleRand: 0.05,
    });
  });

  it("decides a deferred trace by the upstream's number", () => {
    expect(requestSampling({ sampled: undefined, sampleRand: 0.3 }, never)).toEqual({
      parentSampled: undefined,
      sampleRand: 0.3,
    });
  });

  it("draws a fresh number should the scope have none", () => {
    expect(requestSampling({}, () => 0.6)).toEqual({ parentSampled: undefined, sampleRand: 0.6 });
  });
});

describe("sdkTraceSampler", () => {
  it("gives a request's span the rate its arrival was decided with, and spends nothing again", () => {
    const { rates, counts } = fixedBudget(0.5);
    const sampler = sdkTraceSampler(rates, { requestRate: () => 0.0123, sampleRand: () => 0.01 });
    expect(sampler({})).toBe(0.0123);
    expect(sampler({ parentSampled: true, parentSampleRate: 0.4 })).toBe(0.0123);
    expect(counts).toEqual({ demanded: 0, spent: 0 });
  });

  it("decides any other root span as an arrival, from the same budget", () => {
    const { rates, counts } = fixedBudget(0.5, 1);
    const sampler = sdkTraceSampler(rates, { requestRate: () => undefined, sampleRand: () => 0.3 });
    expect(sampler({})).toBe(0.5);
    expect(sampler({ parentSampled: true, parentSampleRate: 0.4 })).toBe(0.2);
    expect(sampler({ parentSampled: false, parentSampleRate: 0.2 })).toBe(0.1);
    expect(counts).toEqual({ demanded: 2, spent: 1 });
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
