import type { TraceBudget } from "./trace-budget.server";

/**
 * The SDK's `tracesSampler`, told the rate each request was decided with on arrival: the SDK then
 * decides the same (`sample_rand < rate`) and records that rate on the transaction (`sentry.sample_rate`)
 * and in the trace's sampling context, so the page and Sentry's extrapolated counts carry it.
 */

interface SamplerContext {
  parentSampled?: boolean;
  parentSampleRate?: number;
}

interface PropagationFacts {
  traceId: string;
  sampleRand?: number;
}

export interface SdkTraceSampler {
  /** Called just before the SDK starts a request's span (its `ignoreIncomingRequests` hook). */
  handOver(traceId: string, sampleRate: number): void;
  sampler(context: SamplerContext): number;
}

/**
 * A continued trace keeps the upstream rate when it agrees with the upstream decision, else 1 or 0:
 * the decision stays upstream's either way.
 */
export function inheritedRate(
  parentSampled: boolean,
  parentSampleRate: number | undefined,
  sampleRand: number,
) {
  if (parentSampleRate !== undefined && sampleRand < parentSampleRate === parentSampled)
    return parentSampleRate;
  return parentSampled ? 1 : 0;
}

export function sdkTraceSampler(budget: TraceBudget, propagation: () => PropagationFacts): SdkTraceSampler {
  // The hook and the span's start run back to back, with no await between: one slot is enough.
  let pending: { traceId: string; sampleRate: number } | undefined;
  return {
    handOver(traceId, sampleRate) {
      pending = { traceId, sampleRate };
    },
    sampler({ parentSampled, parentSampleRate }) {
      const { traceId, sampleRand = Math.random() } = propagation();
      const handed = pending?.traceId === traceId ? pending : undefined;
      pending = undefined;
      if (parentSampled !== undefined) return inheritedRate(parentSampled, parentSampleRate, sampleRand);
      if (handed) return handed.sampleRate;
      // A root span no request started (a job, a script): bounded by the same budget.
      const sampleRate = budget.rateForNewTrace();
      if (sampleRand < sampleRate) budget.traceStarted();
      return sampleRate;
    },
  };
}
