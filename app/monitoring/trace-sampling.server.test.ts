import { describe, expect, it } from "vitest";
import { isRequestTraced, requestSampling, type SamplingInput } from "./trace-sampling.server";

const input = (overrides: Partial<SamplingInput>): SamplingInput => ({
  transactionName: () => "GET /fixtures/items/:id",
  parentSampled: undefined,
  sampleRand: 0.5,
  sampleRate: 0.1,
  untracedPaths: ["/healthz"],
  ...overrides,
});

describe("isRequestTraced", () => {
  it("samples a new trace by its random number, as the SDK's sampler does", () => {
    expect(isRequestTraced(input({ sampleRand: 0.05 }))).toBe(true);
    expect(isRequestTraced(input({ sampleRand: 0.1 }))).toBe(false);
    expect(isRequestTraced(input({ sampleRand: 0.99, sampleRate: 1 }))).toBe(true);
    expect(isRequestTraced(input({ sampleRand: 0, sampleRate: 0 }))).toBe(false);
  });

  it("follows the upstream decision of a continued trace, whatever the rate", () => {
    expect(isRequestTraced(input({ parentSampled: true, sampleRand: 0.99, sampleRate: 0 }))).toBe(true);
    expect(isRequestTraced(input({ parentSampled: false, sampleRand: 0, sampleRate: 1 }))).toBe(false);
  });

  it("never traces what would be dropped: the catch-all and operational paths", () => {
    for (const name of ["GET /*", "POST /*", "GET /healthz"]) {
      expect(
        isRequestTraced(input({ transactionName: () => name, parentSampled: true, sampleRate: 1 })),
      ).toBe(false);
    }
  });

  it("names the request only when it would be traced", () => {
    const never = () => {
      throw new Error("an untraced request needs no name");
    };
    expect(isRequestTraced(input({ transactionName: never, sampleRand: 0.5, sampleRate: 0.1 }))).toBe(false);
    expect(isRequestTraced(input({ transactionName: never, parentSampled: false, sampleRate: 1 }))).toBe(
      false,
    );
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
