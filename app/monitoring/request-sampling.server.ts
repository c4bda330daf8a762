import type { PropagationContext, Scope } from "@sentry/core";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import type { ServerSdk } from "./server-sdk.server";
import { isRequestTraced, requestSampling } from "./trace-sampling";

/**
 * Records an untraced request's decision on its scope, so the page's
 * `sentry-trace` ends in `-0` and its baggage says `sentry-sampled=false`:
 * the browser and any service this request calls follow it instead of
 * deciding again. The baggage is the upstream's when the request continued a
 * trace that had one, else this server's (with the rate and the number the
 * request was decided by). A traced request needs nothing: the SDK's root
 * span reads the same propagation context (`sampled`, `sampleRand`) the
 * decision was made from, so it decides the same (docs/decisions/0032).
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

/**
 * Whether the request is traced: decided once, before its span exists, from
 * the propagation context the HTTP integration gave the request's scope
 * (a new trace with the number it drew, or the incoming `sentry-trace` and
 * baggage it continued; trace-sampling.ts), and recorded on that scope when
 * the answer is no. `transactionName` is asked only when the answer would
 * otherwise be yes (trace-sampling.ts).
 */
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
