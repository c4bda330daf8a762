import type { Scope } from "@sentry/core";
import { getDynamicSamplingContextFromClient, getDynamicSamplingContextFromSpan } from "@sentry/core";
import * as Sentry from "@sentry/node";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import { isRequestTraced, requestSampling } from "./trace-sampling";

/**
 * Freezes the request's sampling decision on its scope: the DSC holds the
 * `sample_rand` the decision was made with, which the SDK's sampler then uses
 * too (patches/@sentry+opentelemetry), and, for a request that is not traced,
 * `sampled: false`, so the page's `sentry-trace` ends in `-0` and its baggage
 * says `sentry-sampled=false`: the browser and any service this request calls
 * follow it instead of deciding again.
 */
function freezeDecision(scope: Scope, sampleRate: number, sampleRand: number, traced: boolean): void {
  const context = scope.getPropagationContext();
  const traceId = Sentry.getActiveSpan()?.spanContext().traceId ?? context.traceId;
  const client = Sentry.getClient();
  const dsc = {
    ...(client ? getDynamicSamplingContextFromClient(traceId, client) : { trace_id: traceId }),
    sample_rate: String(sampleRate),
    sample_rand: String(sampleRand),
  };
  scope.setPropagationContext({
    ...context,
    sampleRand,
    ...(traced ? { dsc } : { sampled: false, dsc: { ...dsc, sampled: "false" } }),
  });
}

/** The first value of a request header. */
const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Whether the request is traced: decided once, before its span exists, from
 * the inputs the SDK's sampler reads (trace-sampling.ts), and frozen on the
 * request's scope. The request's isolation scope and trace already exist here
 * (the HTTP integration continued any incoming trace).
 */
export function decideRequestSampling(
  sentryTrace: string | string[] | undefined,
  transactionName: string,
  sampleRate: number,
): boolean {
  const scope = Sentry.getCurrentScope();
  const remote = Sentry.getActiveSpan();
  const { parentSampled, sampleRand } = requestSampling(
    headerValue(sentryTrace),
    scope.getPropagationContext().sampleRand,
    remote && { sampleRand: getDynamicSamplingContextFromSpan(remote).sample_rand },
  );
  const traced = isRequestTraced({
    transactionName,
    parentSampled,
    sampleRand,
    sampleRate,
    untracedPaths: OPERATIONAL_PATHS,
  });
  freezeDecision(scope, sampleRate, sampleRand, traced);
  return traced;
}
