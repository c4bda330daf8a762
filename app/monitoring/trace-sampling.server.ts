import type { TraceBudget } from "./trace-budget.server";

/** Decided before any span exists (no span work when unsampled), by the SDK's own rule: traced iff `sample_rand < rate`. */

export interface SamplingInput {
  parentSampled: boolean | undefined;
  /** The upstream's `sentry-sample_rate`. */
  parentSampleRate: number | undefined;
  sampleRand: number;
  /** False for what is never traced (the catch-all, operational paths); asked only of an arrival that would count. */
  traceable: () => boolean;
}

export interface TraceDecision {
  traced: boolean;
  /** Carried by the transaction, the page and the calls, so Sentry's counts (Σ 1/rate) stay true. */
  sampleRate: number;
}

/** Shared by every decision of the process (docs/decisions/0090). */
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

/** What the arrival asks for: the configured rate for a new trace, the upstream's for a continued one. */
export function baseRate(input: Omit<SamplingInput, "traceable">, configuredRate: number): number {
  return input.parentSampled === undefined
    ? configuredRate
    : inheritedRate(input.parentSampled, input.parentSampleRate, input.sampleRand);
}

/**
 * New and continued traces draw from one budget, so no header lifts it: each arrival is traced at
 * its base rate times the budget's share, by its own `sample_rand` (a continued trace's is below
 * the upstream's rate, so a lowered rate keeps a consistent part of the upstream's traces).
 */
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

/**
 * The SDK's `tracesSampler`: a request's span takes the rate its arrival was decided with (looked
 * up per request); any other root span (a job, a script) is decided as an arrival is.
 */
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
