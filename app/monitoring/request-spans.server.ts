import type { IncomingMessage } from "node:http";
import type { Span } from "@sentry/core";
import { requestIdOf } from "~/request-scope.server";
import { routePatternOf } from "~/routing/request-route.server";
import { NOT_FOUND_PATTERN, routePatternOfMatches } from "~/routing/route-patterns";
import { decideRequestTrace, requestTraceOf, untracedTrace, type RequestTrace } from "./request-trace.server";
import { newTraceRate, type TraceRates } from "./trace-sampling.server";
import { TRACE_RATE_TIMING } from "./sentry-options";
import { serverSdk, type ServerSdk } from "./server-sdk.server";

export function serverTransactionName(method: string, url: URL, route = routePatternOf(url)): string {
  return routeTransactionName(method, route ?? url.pathname);
}

const routeTransactionName = (method: string, route: string) => `${method.toUpperCase()} ${route}`;

const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";

interface ArrivalRoute {
  url: URL | null;
  route: string | undefined;
}

/** Matched once a request: its arrival's decision and its span's name read the same match. */
const arrivalRoutes = new WeakMap<object, ArrivalRoute>();

function arrivalRouteOf(request: { url?: string }): ArrivalRoute {
  let matched = arrivalRoutes.get(request);
  if (!matched) {
    const url = URL.parse(request.url ?? "/", "http://localhost");
    matched = { url, route: url ? routePatternOf(url) : undefined };
    arrivalRoutes.set(request, matched);
  }
  return matched;
}

/** As it is created: the trace's sampling context carries the name only when its source is not `url`. */
function nameRequestSpan(span: Span, request: { method?: string; url?: string }): void {
  const { route } = arrivalRouteOf(request);
  if (!route) return;
  span.updateName(routeTransactionName(request.method ?? "GET", route));
  span.setAttributes({ [SEGMENT_NAME_SOURCE]: "route", "http.route": route });
}

/** The request's isolation scope, so its transaction carries the id its log lines and response do. */
export function tagRequestSpan(sdk: ServerSdk) {
  return (span: Span, request: object): void => {
    nameRequestSpan(span, request);
    sdk.node.getIsolationScope().setTag("request_id", requestIdOf(request as IncomingMessage));
  };
}

/** Keyed by the request's isolation scope, where both the callback and the SDK's sampler run. */
const requestRates = new WeakMap<object, number>();

export function requestRateOf(sdk: ServerSdk): number | undefined {
  return requestRates.get(sdk.node.getIsolationScope());
}

/** `ignoreIncomingRequests` (server/adapter/README.md): gives the request's scope and sampler its arrival decision. */
export function skipsRequestSpan(sdk: ServerSdk, decide: (request: IncomingMessage) => RequestTrace) {
  return (_urlPath: string, request: object): boolean => {
    const trace = requestTraceOf(request as IncomingMessage) ?? decide(request as IncomingMessage);
    if (!trace.traced) return true;
    const scope = sdk.node.getCurrentScope();
    scope.setPropagationContext({
      ...scope.getPropagationContext(),
      traceId: trace.traceId,
      sampleRand: trace.sampleRand,
    });
    requestRates.set(sdk.node.getIsolationScope(), trace.sampleRate);
    return false;
  };
}

let liveRates: TraceRates | undefined;

/** A data response's `Server-Timing` entry: the rate new traces get now, for the tab's next navigations. */
export function traceRateServerTiming(): string | undefined {
  return liveRates && `${TRACE_RATE_TIMING};desc=${newTraceRate(liveRates)}`;
}

export function requestTraceDecider(
  sdk: ServerSdk,
  rates: TraceRates,
): (request: IncomingMessage) => RequestTrace {
  liveRates = rates;
  const isStaticAsset = sdk.server.isStaticAssetRequest;
  return (request) =>
    decideRequestTrace(sdk, request, {
      rates,
      isStaticAsset,
      // A target that is no URL (`/\\3%E9`) gets 400 from the pre-app guards: never traced.
      name: () => {
        const { url, route } = arrivalRouteOf(request);
        return url
          ? routeTransactionName(request.method ?? "GET", route ?? url.pathname)
          : `GET ${NOT_FOUND_PATTERN}`;
      },
    });
}

/** The page's trace tags, named from the framework's matches: React Router 8's `matchRoutes` ranks all routes. */
export function traceMetaData(
  request: Request,
  matches: readonly { route: { path?: string } }[],
): { sentryTrace?: string; baggage?: string } {
  const sdk = serverSdk();
  if (!sdk?.node.getClient()) return {};
  if (matches.length)
    untracedTrace()?.nameAs(routeTransactionName(request.method, routePatternOfMatches(matches)));
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
