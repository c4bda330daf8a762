import { extractTraceparentData, parseSampleRate } from "@sentry/core";
import { isDroppedTransaction } from "./sentry-options";

/**
 * The server decides whether a request is traced before any span exists
 * (bench/README.md, "Where the time goes"): an unsampled request then costs no
 * span, no OpenTelemetry context and no span processing at all, only the
 * request's isolation scope. The decision is the one the SDK's own sampler
 * makes, so when it says yes the SDK agrees and records the span.
 */
export interface SamplingInput {
  /** `GET /fixtures/items/:id`: the method and the route pattern that serves the request. */
  transactionName: string;
  /** The upstream decision from an incoming `sentry-trace` header, if it had one. */
  parentSampled: boolean | undefined;
  /** The trace's random number in [0, 1), from the incoming baggage or drawn for a new trace. */
  sampleRand: number;
  /** `SENTRY_TRACES_SAMPLE_RATE`. */
  sampleRate: number;
  /** Operational paths never traced (`/healthz`). */
  untracedPaths: readonly string[];
}

export function isRequestTraced({
  transactionName,
  parentSampled,
  sampleRand,
  sampleRate,
  untracedPaths,
}: SamplingInput): boolean {
  // Whatever the rate: the transaction would be dropped before sending anyway.
  if (isDroppedTransaction(transactionName, untracedPaths)) return false;
  // Head-based sampling: a trace started upstream keeps the upstream decision.
  if (parentSampled !== undefined) return parentSampled;
  return sampleRand < sampleRate;
}

/**
 * The inputs of a request's sampling decision, the same the SDK's sampler will
 * read when it creates the request span (decision record 0032):
 * - no `sentry-trace`: a new trace, with the random number the SDK drew for
 *   this request (on the request's scope);
 * - a trace the SDK continued (it made a remote parent span from the headers):
 *   the upstream decision, else the upstream's `sample_rand` (which the SDK
 *   put in that parent's DSC, or drew itself when the baggage had none);
 * - a `sentry-trace` the SDK did not continue (malformed, or another
 *   organisation's): a new trace, but the SDK drew no number for it (the
 *   scope's is then the one the whole process shares), so a fresh one.
 * When the parent's DSC has no `sample_rand` either, the fresh number goes on
 * the request's scope, where the patched sampler finds it.
 */
export function requestSampling(
  sentryTrace: string | undefined,
  scopeSampleRand: number,
  remoteParent: { sampleRand: string | undefined } | undefined,
  random: () => number = Math.random,
): { parentSampled: boolean | undefined; sampleRand: number } {
  if (!sentryTrace) return { parentSampled: undefined, sampleRand: scopeSampleRand };
  if (!remoteParent) return { parentSampled: undefined, sampleRand: random() };
  return {
    parentSampled: extractTraceparentData(sentryTrace)?.parentSampled,
    sampleRand: parseSampleRate(remoteParent.sampleRand) ?? random(),
  };
}
