import type { PropagationContext, Scope } from "@sentry/core";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import type { ServerSdk } from "./server-sdk.server";
import { isDroppedTransaction } from "./sentry-options";

/**
 * Whether a request is traced: decided before any span exists, so an unsampled
 * request costs no span work at all, by the rule the SDK's own sampler applies,
 * so when it says yes the SDK agrees. Most requests are decided on arrival
 * (request-trace.server.ts); one that was not is decided here, on its scope.
 */

export interface SamplingInput {
  /** Asked only when the answer would otherwise be yes: naming matches the URL against the routes. */
  transactionName: () => string;
  /** From an incoming `sentry-trace`. */
  parentSampled: boolean | undefined;
  /** In [0, 1), from the incoming baggage or drawn for a new trace. */
  sampleRand: number;
  sampleRate: number;
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

/** The inputs as the SDK's sampler reads them from the request's scope (docs/decisions/0032). */
export function requestSampling(
  context: { sampled?: boolean; sampleRand?: number },
  random: () => number = Math.random,
): { parentSampled: boolean | undefined; sampleRand: number } {
  return { parentSampled: context.sampled, sampleRand: context.sampleRand ?? random() };
}

/**
 * So the page and the services it calls follow the decision (`-0`,
 * `sentry-sampled=false`) instead of deciding again. A traced request needs
 * nothing: the SDK decides from the same propagation context.
 */
function recordUntraced(
  { node, core }: ServerSdk,
  scope: Scope,
  context: PropagationContext,
  sampleRate: number,
): void {
  const client = node.getClient();
  const upstream = context.dsc && Object.keys(context.dsc).length > 0 ? context.dsc : undefined;
  const own = {
    ...(client
      ? core.getDynamicSamplingContextFromClient(context.traceId, client)
      : { trace_id: context.traceId }),
    sample_rate: String(sampleRate),
  };
  scope.setPropagationContext({
    ...context,
    sampled: false,
    dsc: { ...(upstream ?? own), sample_rand: String(context.sampleRand), sampled: "false" },
  });
}

/** A request not decided on arrival, decided before its span exists, and recorded when the answer is no. */
export function decideRequestSampling(
  sdk: ServerSdk,
  transactionName: () => string,
  sampleRate: number,
): boolean {
  const scope = sdk.node.getCurrentScope();
  const context = scope.getPropagationContext();
  const { parentSampled, sampleRand } = requestSampling(context);
  const traced = isRequestTraced({
    transactionName,
    parentSampled,
    sampleRand,
    sampleRate,
    untracedPaths: OPERATIONAL_PATHS,
  });
  if (!traced) recordUntraced(sdk, scope, { ...context, sampleRand }, sampleRate);
  return traced;
}
