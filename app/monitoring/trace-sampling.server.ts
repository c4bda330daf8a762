import type { DynamicSamplingContext } from "@sentry/core";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import type { ServerSdk } from "./server-sdk.server";
import { isDroppedTransaction } from "./sentry-options";
import type { TraceBudget } from "./trace-budget.server";

/**
 * Decided before any span exists, so an unsampled request costs no span work, by the rule the SDK's own
 * sampler applies, so when it says yes the SDK agrees.
 */

export interface SamplingInput {
  /** Asked only when the answer would otherwise be yes: naming matches the URL against the routes. */
  transactionName: () => string;
  parentSampled: boolean | undefined;
  sampleRand: number;
  untracedPaths: readonly string[];
}

export interface TraceDecision {
  traced: boolean;
  /** A new trace's: the probability it was decided with, which its trace carries. */
  sampleRate?: number;
}

/** A continued trace follows the upstream decision; a new one is decided by the budget's rate now. */
export function decideTrace(
  { transactionName, parentSampled, sampleRand, untracedPaths }: SamplingInput,
  budget: TraceBudget,
): TraceDecision {
  // The transaction would be dropped before sending anyway.
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
  { budget, configuredRate }: { budget: TraceBudget; configuredRate: number },
): TraceDecision {
  const scope = sdk.node.getCurrentScope();
  const context = scope.getPropagationContext();
  const { parentSampled, sampleRand } = requestSampling(context);
  const decision = decideTrace(
    { transactionName, parentSampled, sampleRand, untracedPaths: OPERATIONAL_PATHS },
    budget,
  );
  if (!decision.traced)
    scope.setPropagationContext({
      ...context,
      sampleRand,
      sampled: false,
      dsc: untracedSamplingContext(sdk, { ...context, sampleRand }, decision.sampleRate ?? configuredRate),
    });
  return decision;
}
