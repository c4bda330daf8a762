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
  transactionName: () => "GET /fixtures/items/:id",
  parentSampled: undefined,
  sampleRand: 0.5,
  untracedPaths: ["/healthz"],
  ...overrides,
});

/** A budget that always offers `rate`, counting what it is asked. */
function fixedBudget(rate: number) {
  const counts = { offered: 0, started: 0 };
  const budget: TraceBudget = {
    rateForNewTrace: () => (counts.offered++, rate),
    traceStarted: () => void counts.started++,
  };
  return { budget, counts };
}

const traced = (overrides: Partial<SamplingInput>, rate = 0.1) =>
  decideTrace(input(overrides), fixedBudget(rate).budget).traced;

describe("decideTrace", () => {
  it("samples a new trace by its random number, as the SDK's sampler does, and says at what rate", () => {
    expect(traced({ sampleRand: 0.05 })).toBe(true);
    expect(traced({ sampleRand: 0.1 })).toBe(false);
    expect(traced({ sampleRand: 0.99 }, 1)).toBe(true);
    expect(traced({ sampleRand: 0 }, 0)).toBe(false);
    expect(decideTrace(input({ sampleRand: 0.5 }), fixedBudget(0.25).budget)).toEqual({
      traced: false,
      sampleRate: 0.25,
    });
  });

  it("spends the budget only on a trace it starts", () => {
    const { budget, counts } = fixedBudget(0.1);
    decideTrace(input({ sampleRand: 0.05 }), budget);
    decideTrace(input({ sampleRand: 0.5 }), budget);
    decideTrace(input({ sampleRand: 0.05, transactionName: () => "GET /healthz" }), budget);
    expect(counts).toEqual({ offered: 3, started: 1 });
  });

  it("follows the upstream decision of a continued trace, whatever the rate, and leaves the budget be", () => {
    const { budget, counts } = fixedBudget(0);
    expect(decideTrace(input({ parentSampled: true, sampleRand: 0.99 }), budget)).toEqual({ traced: true });
    expect(traced({ parentSampled: false, sampleRand: 0 }, 1)).toBe(false);
    expect(counts).toEqual({ offered: 0, started: 0 });
  });

  it("never traces what would be dropped: the catch-all and operational paths", () => {
    for (const name of ["GET /*", "POST /*", "GET /healthz"]) {
      expect(traced({ transactionName: () => name, parentSampled: true }, 1)).toBe(false);
    }
  });

  it("names the request only when it would be traced", () => {
    const never = () => {
      throw new Error("an untraced request needs no name");
    };
    expect(traced({ transactionName: never, sampleRand: 0.5 }, 0.1)).toBe(false);
    expect(traced({ transactionName: never, parentSampled: false }, 1)).toBe(false);
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
