import type { TraceBudget } from "./trace-budget.server";

export interface SamplingInput {
  parentSampled: boolean | undefined;
  parentSampleRate: number | undefined;
  sampleRand: number;
  /** Asked only of an arrival that would count: naming matches the URL against the routes. */
  traceable: () => boolean;
}

export interface TraceDecision {
  traced: boolean;
  sampleRate: number;
}

export interface TraceRates {
  budget: TraceBudget;
  configuredRate: number;
}

/** The upstream rate when it agrees with the upstream decision, else 1 or 0: upstream decides either way. */
export function inheritedRate(
  parentSampled: boolean,
  parentSampleRate: number | undefined,
  sampleRand: number,
): number {
  if (parentSampleRate !== undefined && sampleRand < parentSampleRate === parentSampled)
    return parentSampleRate;
  return parentSampled ? 1 : 0;
}

export function baseRate(input: Omit<SamplingInput, "traceable">, configuredRate: number): number {
  return input.parentSampled === undefined
    ? configuredRate
    : inheritedRate(input.parentSampled, input.parentSampleRate, input.sampleRand);
}

/** The rate a new trace is decided at now: the browser's next navigations follow it (trace-rate.client.ts). */
export function newTraceRate({ budget, configuredRate }: TraceRates): number {
  return Number((configuredRate * budget.share()).toPrecision(4));
}

/** Before any span exists, by the SDK's rule (traced iff `sample_rand < rate`); one budget for all (docs/decisions/0090). */
export function decideTrace(input: SamplingInput, { budget, configuredRate }: TraceRates): TraceDecision {
  const base = baseRate(input, configuredRate);
  const sampleRate = Number((base * budget.share()).toPrecision(4));
  // Not counted, not named: it would not be traced even with the budget to spare.
  if (!(input.sampleRand < base) || !input.traceable()) return { traced: false, sampleRate };
  budget.demanded();
  const traced = input.sampleRand < sampleRate;
  if (traced) budget.spend();
  return { traced, sampleRate };
}

/** As the SDK's sampler reads them from the request's scope (docs/decisions/0032). */
export function requestSampling(
  context: { sampled?: boolean; sampleRand?: number },
  random: () => number = Math.random,
): { parentSampled: boolean | undefined; sampleRand: number } {
  return { parentSampled: context.sampled, sampleRand: context.sampleRand ?? random() };
}

interface SamplerContext {
  parentSampled?: boolean;
  parentSampleRate?: number;
}

/** A request's span takes its arrival's rate; any other root span (a job) is decided as an arrival is. */
export function sdkTraceSampler(
  rates: TraceRates,
  {
    requestRate,
    sampleRand,
  }: { requestRate: () => number | undefined; sampleRand: () => number | undefined },
) {
  return ({ parentSampled, parentSampleRate }: SamplerContext): number => {
    const decided = requestRate();
    if (decided !== undefined) return decided;
    const input = { parentSampled, parentSampleRate, sampleRand: sampleRand() ?? Math.random() };
    return decideTrace({ ...input, traceable: () => true }, rates).sampleRate;
  };
}
