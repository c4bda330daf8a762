import { describe, expect, it } from "vitest";
import { isRequestTraced, requestSampling, type SamplingInput } from "./trace-sampling";

const input = (overrides: Partial<SamplingInput>): SamplingInput => ({
  transactionName: "GET /fixtures/items/:id",
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
    for (const transactionName of ["GET /*", "POST /*", "GET /healthz"]) {
      expect(isRequestTraced(input({ transactionName, parentSampled: true, sampleRate: 1 }))).toBe(false);
    }
  });
});

describe("requestSampling", () => {
  const never = () => {
    throw new Error("no fresh number expected");
  };
  const trace = "0123456789abcdef0123456789abcdef-0123456789abcdef";

  it("takes a new trace's number from the request's scope, where the SDK drew it", () => {
    expect(requestSampling(undefined, 0.42, undefined, never)).toEqual({
      parentSampled: undefined,
      sampleRand: 0.42,
    });
  });

  it("follows a continued trace's decision, with the upstream's number", () => {
    expect(requestSampling(`${trace}-1`, 0.99, { sampleRand: "0.7" }, never)).toEqual({
      parentSampled: true,
      sampleRand: 0.7,
    });
    expect(requestSampling(`${trace}-0`, 0.01, { sampleRand: "0.05" }, never)).toEqual({
      parentSampled: false,
      sampleRand: 0.05,
    });
  });

  it("decides a deferred trace by the upstream's number, never by the scope's shared one", () => {
    expect(requestSampling(trace, 0.99, { sampleRand: "0.3" }, never)).toEqual({
      parentSampled: undefined,
      sampleRand: 0.3,
    });
    expect(requestSampling(trace, 0.99, { sampleRand: undefined }, () => 0.25)).toEqual({
      parentSampled: undefined,
      sampleRand: 0.25,
    });
  });

  it("draws a fresh number for a sentry-trace the SDK did not continue", () => {
    expect(requestSampling("garbage", 0.99, undefined, () => 0.6)).toEqual({
      parentSampled: undefined,
      sampleRand: 0.6,
    });
  });
});
