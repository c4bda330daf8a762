import type { DynamicSamplingContext } from "@sentry/core";
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

/**
 * An untraced request's sampling context, as the SDK records one (`sampled=false`, this server's rate),
 * or the upstream one it continues: the page and the services it calls follow the decision.
 */
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
  if (!traced)
    scope.setPropagationContext({
      ...context,
      sampleRand,
      sampled: false,
      dsc: untracedSamplingContext(sdk, { ...context, sampleRand }, sampleRate),
    });
  return traced;
}
