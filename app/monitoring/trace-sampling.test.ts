import { describe, expect, it } from "vitest";
import { isRequestTraced, type SamplingInput } from "./trace-sampling";

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
