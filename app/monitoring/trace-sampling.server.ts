import type { DynamicSamplingContext } from "@sentry/core";
import type { ServerSdk } from "./server-sdk.server";
import { isDroppedTransaction } from "./sentry-options";
import type { TraceBudget } from "./trace-budget.server";

/** Decided before any span exists (no span work when unsampled), by the SDK's own sampler's rule. */

export interface SamplingInput {
  /** Asked only when the answer would otherwise be yes: naming matches the URL against the routes. */
  transactionName: () => string;
  parentSampled: boolean | undefined;
  sampleRand: number;
  untracedPaths: readonly string[];
}

export interface TraceDecision {
  traced: boolean;
  sampleRate?: number;
}

export function decideTrace(
  { transactionName, parentSampled, sampleRand, untracedPaths }: SamplingInput,
  budget: TraceBudget,
): TraceDecision {
  const kept = () => !isDroppedTransaction(transactionName(), untracedPaths);
  if (parentSampled !== undefined) return { traced: parentSampled && kept() };
  const sampleRate = budget.rateForNewTrace();
  const traced = sampleRand < sampleRate && kept();
  if (traced) budget.traceStarted();
  return { traced, sampleRate };
}

/** As the SDK's sampler reads them from the request's scope (docs/decisions/0032). */
export function requestSampling(
  context: { sampled?: boolean; sampleRand?: number },
  random: () => number = Math.random,
): { parentSampled: boolean | undefined; sampleRand: number } {
  return { parentSampled: context.sampled, sampleRand: context.sampleRand ?? random() };
}

/** As the SDK records one, or the upstream one: the page and the services it calls follow the decision. */
export function untracedSamplingContext(
  { node, core }: ServerSdk,
  trace: { traceId: string; sampleRand: number; dsc?: Partial<DynamicSamplingContext>; transaction?: string },
  sampleRate: number,
) {
  const client = node.getClient();
  const upstream = trace.dsc && Object.keys(trace.dsc).length > 0 ? trace.dsc : undefined;
  const own = {
    ...(client
      ? core.getDynamicSamplingContextFromClient(trace.traceId, client)
      : { trace_id: trace.traceId }),
    sample_rate: String(sampleRate),
    ...(trace.transaction === undefined ? {} : { transaction: trace.transaction }),
  };
  return { ...(upstream ?? own), sample_rand: String(trace.sampleRand), sampled: "false" };
}

interface SamplerContext {
  parentSampled?: boolean;
  parentSampleRate?: number;
}

interface PropagationFacts {
  traceId: string;
  sampleRand?: number;
}

export interface SdkTraceSampler {
  handOver(traceId: string, sampleRate: number): void;
  sampler(context: SamplerContext): number;
}

/** The upstream rate when it agrees with the upstream decision, else 1 or 0: upstream decides either way. */
export function inheritedRate(
  parentSampled: boolean,
  parentSampleRate: number | undefined,
  sampleRand: number,
) {
  if (parentSampleRate !== undefined && sampleRand < parentSampleRate === parentSampled)
    return parentSampleRate;
  return parentSampled ? 1 : 0;
}

/** Told each request's arrival rate: the SDK decides the same and records it for Sentry's extrapolation. */
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

/** Shared by the arrival decision and the SDK's sampler (docs/decisions/0080). */
export interface TraceRates {
  budget: TraceBudget;
  sdkSampler: SdkTraceSampler;
  configuredRate: number;
}
let rates: TraceRates | undefined;

export function setTraceRates(value: TraceRates): TraceRates {
  return (rates = value);
}

export function traceRates(): TraceRates | undefined {
  return rates;
}
