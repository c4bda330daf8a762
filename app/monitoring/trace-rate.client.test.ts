import { describe, expect, it } from "vitest";
import { traceSamplerFromPage } from "./trace-rate.client";

/** As the SDK calls it: the parent's rate when there is one, else the fallback. */
const decide = (sampler: ReturnType<typeof traceSamplerFromPage>, parentSampleRate?: number) =>
  sampler({ inheritOrSampleWith: (fallback) => parentSampleRate ?? fallback });

describe("traceSamplerFromPage", () => {
  it("starts new traces at the rate the page was given, never above the configured one", () => {
    expect(
      decide(traceSamplerFromPage(1, "sentry-trace_id=a,sentry-sample_rate=0.05,sentry-sampled=false")),
    ).toBe(0.05);
    expect(decide(traceSamplerFromPage(0.1, "sentry-sample_rate=1"))).toBe(0.1);
  });

  it("keeps the configured rate when the page says none", () => {
    expect(decide(traceSamplerFromPage(0.1, undefined))).toBe(0.1);
    expect(decide(traceSamplerFromPage(0.1, "sentry-sample_rate=x"))).toBe(0.1);
  });

  it("leaves a continued trace's decision to its parent", () => {
    expect(decide(traceSamplerFromPage(1, "sentry-sample_rate=0.05"), 0.5)).toBe(0.5);
  });
});
