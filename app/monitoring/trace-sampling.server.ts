import type { PropagationContext, Scope } from "@sentry/core";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import type { ServerSdk } from "./server-sdk.server";
import { isDroppedTransaction } from "./sentry-options";

/**
 * Decided before any span exists, so an unsampled request costs no span work, by the rule the SDK's own
 * sampler applies, so when it says yes the SDK agrees.
 */

export interface SamplingInput {
  /** Asked only when the answer would otherwise be yes: naming matches the URL against the routes. */
  transactionName: () => string;
  parentSampled: boolean | undefined;
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
  const sampled = parentSampled ?? sampleRand < sampleRate;
  // The transaction would be dropped before sending anyway.
  return sampled && !isDroppedTransaction(transactionName(), untracedPaths);
}

/** As the SDK's sampler reads them from the request's scope (docs/decisions/0032). */
export function requestSampling(
  context: { sampled?: boolean; sampleRand?: number },
  random: () => number = Math.random,
): { parentSampled: boolean | undefined; sampleRand: number } {
  return { parentSampled: context.sampled, sampleRand: context.sampleRand ?? random() };
}

/** So the page and the services it calls follow the decision (`-0`, `sentry-sampled=false`). */
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

/** A request not decided on arrival. */
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
