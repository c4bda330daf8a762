import { describe, expect, it } from "vitest";
import { traceSamplerFromPage } from "./trace-rate.client";

/** As the SDK calls it: the parent's rate when there is one, else the fallback. */
const observeNothing = () => {};
const decide = (sampler: ReturnType<typeof traceSamplerFromPage>, parentSampleRate?: number) =>
  sampler({ inheritOrSampleWith: (fallback) => parentSampleRate ?? fallback });

describe("traceSamplerFromPage", () => {
  it("starts new traces at the rate the page was given, never above the configured one", () => {
    expect(
      decide(
        traceSamplerFromPage(
          1,
          "sentry-trace_id=a,sentry-sample_rate=0.05,sentry-sampled=false",
          observeNothing,
        ),
      ),
    ).toBe(0.05);
    expect(decide(traceSamplerFromPage(0.1, "sentry-sample_rate=1", observeNothing))).toBe(0.1);
  });

  it("keeps the configured rate when the page says none", () => {
    expect(decide(traceSamplerFromPage(0.1, undefined, observeNothing))).toBe(0.1);
    expect(decide(traceSamplerFromPage(0.1, "sentry-sample_rate=x", observeNothing))).toBe(0.1);
  });

  it("leaves a continued trace's decision to its parent", () => {
    expect(decide(traceSamplerFromPage(1, "sentry-sample_rate=0.05", observeNothing), 0.5)).toBe(0.5);
  });

  it("follows the rate the server gives later, up to the configured one: down when its budget runs short, up when it refills", () => {
    let serverSays: (rate: number) => void = () => {};
    const sampler = traceSamplerFromPage(0.5, "sentry-sample_rate=0", (onRate) => (serverSays = onRate));
    expect(decide(sampler)).toBe(0);
    serverSays(1);
    expect(decide(sampler)).toBe(0.5);
    serverSays(0.02);
    expect(decide(sampler)).toBe(0.02);
    expect(decide(sampler, 0.3)).toBe(0.3);
  });
});
