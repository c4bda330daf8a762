import { isDroppedTransaction } from "./sentry-options";

/**
 * The server decides whether a request is traced before any span exists, so an
 * unsampled request costs no span work at all. The decision is the one the
 * SDK's own sampler makes, so when it says yes the SDK agrees.
 */
export interface SamplingInput {
  /**
   * `GET /fixtures/items/:id`. Asked only when the request would otherwise be
   * traced: naming it matches the URL against the routes, which an untraced request does not need.
   */
  transactionName: () => string;
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
  // Head-based sampling: a trace started upstream keeps the upstream decision.
  const sampled = parentSampled ?? sampleRand < sampleRate;
  // Whatever the decision: the transaction would be dropped before sending anyway.
  return sampled && !isDroppedTransaction(transactionName(), untracedPaths);
}

/**
 * The inputs of a request's sampling decision, as the SDK's sampler reads them
 * from the request's scope (docs/decisions/0032): the upstream decision if a
 * trace was continued, and the trace's random number. `random` is a fallback
 * should the SDK not have set one.
 */
export function requestSampling(
  context: { sampled?: boolean; sampleRand?: number },
  random: () => number = Math.random,
): { parentSampled: boolean | undefined; sampleRand: number } {
  return { parentSampled: context.sampled, sampleRand: context.sampleRand ?? random() };
}
