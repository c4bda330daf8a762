import type { IncomingMessage } from "node:http";
import type { Span } from "@sentry/core";
import type { Env } from "~/env.server";
import { requestIdOf } from "~/request-scope.server";
import { routePatternOf } from "~/routing/request-route.server";
import { NOT_FOUND_PATTERN } from "~/routing/route-patterns";
import { decideRequestTrace, requestTraceOf, untracedTrace, untracedTraceData } from "./request-trace.server";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import {
  decideTrace,
  requestSampling,
  traceRates,
  untracedSamplingContext,
  type TraceDecision,
  type TraceRates,
} from "./trace-sampling.server";
import { serverSdk, type ServerSdk } from "./server-sdk.server";

export function serverTransactionName(method: string, url: URL, route = routePatternOf(url)): string {
  return `${method.toUpperCase()} ${route ?? url.pathname}`;
}

const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";

/** As it is created: the trace's sampling context carries the name only when its source is not `url`. */
function nameRequestSpan(span: Span, request: { method?: string; url?: string }): void {
  const url = URL.parse(request.url ?? "/", "http://localhost");
  const route = url && routePatternOf(url);
  if (!route) return;
  span.updateName(serverTransactionName(request.method ?? "GET", url, route));
  span.setAttributes({ [SEGMENT_NAME_SOURCE]: "route", "http.route": route });
}

/** The request's isolation scope, so its transaction carries the id its log lines and response do. */
export function tagRequestSpan(sdk: ServerSdk) {
  return (span: Span, request: object): void => {
    nameRequestSpan(span, request);
    sdk.node.getIsolationScope().setTag("request_id", requestIdOf(request as IncomingMessage));
  };
}

/** `ignoreIncomingRequests` (server/adapter/README.md): gives the scope and sampler the arrival decision. */
export function skipsRequestSpan(sdk: ServerSdk, rates: TraceRates) {
  return (urlPath: string, request: object): boolean => {
    const scope = sdk.node.getCurrentScope();
    const trace = requestTraceOf(request as IncomingMessage);
    if (!trace) {
      const method = (request as { method?: string }).method ?? "GET";
      const name = () => serverTransactionName(method, new URL(urlPath, "http://localhost"));
      const { traced, sampleRate } = decideRequestSampling(sdk, name, rates);
      if (traced && sampleRate !== undefined)
        rates.sdkSampler.handOver(scope.getPropagationContext().traceId, sampleRate);
      return !traced;
    }
    scope.setPropagationContext({
      ...scope.getPropagationContext(),
      traceId: trace.traceId,
      sampleRand: trace.sampleRand,
    });
    if (trace.traced && trace.sampleRate !== undefined)
      rates.sdkSampler.handOver(trace.traceId, trace.sampleRate);
    return !trace.traced;
  };
}

export function decideRequestSampling(
  sdk: ServerSdk,
  transactionName: () => string,
  { budget, configuredRate }: TraceRates,
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

/** True when the SDK's HTTP instrumentation should handle the request. */
export function requestTraceDecider(env: Env): ((request: IncomingMessage) => boolean) | undefined {
  const sdk = serverSdk();
  const rates = traceRates();
  if (!env.SENTRY_DSN || !sdk || !rates) return undefined;
  const isStaticAsset = sdk.server.isStaticAssetRequest;
  return (request) =>
    decideRequestTrace(sdk, request, {
      budget: rates.budget,
      isStaticAsset,
      // A target that is no URL (`/\\3%E9`) gets 400 from the pre-app guards: never traced.
      name: () => {
        const url = URL.parse(request.url ?? "/", "http://localhost");
        return url ? serverTransactionName(request.method ?? "GET", url) : `GET ${NOT_FOUND_PATTERN}`;
      },
    }).traced;
}

export const sampleRateOf = (sdk: ServerSdk) => sdk.node.getClient()?.getOptions().tracesSampleRate ?? 0;

export function traceMetaData(): { sentryTrace?: string; baggage?: string } {
  const sdk = serverSdk();
  if (!sdk?.node.getClient()) return {};
  const untraced = untracedTrace();
  if (untraced) return untracedTraceData(sdk, untraced, sampleRateOf(sdk));
  const data = sdk.node.getTraceData();
  return { sentryTrace: data["sentry-trace"], baggage: data.baggage };
}

/** Read by the browser SDK when a page has no trace meta tags (an error page without root data). */
export function traceServerTiming({ sentryTrace, baggage }: { sentryTrace?: string; baggage?: string }) {
  if (!sentryTrace) return undefined;
  return baggage
    ? `sentry-trace;desc="${sentryTrace}", baggage;desc="${baggage}"`
    : `sentry-trace;desc="${sentryTrace}"`;
}
