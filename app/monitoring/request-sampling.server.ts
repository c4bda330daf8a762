import type { PropagationContext, Scope } from "@sentry/core";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import type { ServerSdk } from "./server-sdk.server";
import { isRequestTraced, requestSampling } from "./trace-sampling";

/**
 * Records an untraced request's decision on its scope, so the page and any
 * service it calls follow it (`-0`, `sentry-sampled=false`) instead of deciding
 * again. A traced request needs nothing: the SDK decides from the same
 * propagation context (docs/decisions/0032).
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

/** Whether the request is traced: decided once, before its span exists, and recorded when the answer is no. */
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
