import { isDroppedTransaction } from "./sentry-options";

/**
 * The server decides whether a request is traced before any span exists
 * (bench/README.md, "Where the time goes"): an unsampled request then costs no
 * span, no OpenTelemetry context and no span processing at all, only the
 * request's isolation scope. The decision is the one the SDK's own sampler
 * makes, so when it says yes the SDK agrees and records the span.
 */
export interface SamplingInput {
  /**
   * `GET /fixtures/items/:id`: the method and the route pattern that serves
   * the request. Asked only when the request would otherwise be traced:
   * naming it parses the URL and matches it against the routes, which an
   * untraced request (nine in ten at the default rate) does not need.
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
 * The inputs of a request's sampling decision, the same the SDK's sampler
 * reads when it creates the request span (decision record 0032): the HTTP
 * integration has put them on the request's scope before it asks whether to
 * create the span:
 * - no `sentry-trace` (or one it could not parse): a new trace, with a number
 *   it drew for this request;
 * - a trace it continued: the upstream decision (`-1`/`-0`) if there was one,
 *   and the upstream's `sample_rand` from the baggage, or a number it derived
 *   (consistent with the upstream decision) when the baggage had none.
 * The SDK always sets the number; `random` is a fallback should it not.
 */
export function requestSampling(
  context: { sampled?: boolean; sampleRand?: number },
  random: () => number = Math.random,
): { parentSampled: boolean | undefined; sampleRand: number } {
  return { parentSampled: context.sampled, sampleRand: context.sampleRand ?? random() };
}
