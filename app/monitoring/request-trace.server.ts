import type { IncomingMessage } from "node:http";
import type { Breadcrumb, DynamicSamplingContext, Scope } from "@sentry/core";
import { currentIncomingRequest } from "~/request-scope.server";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import type { ServerSdk } from "./server-sdk.server";
import type { TraceBudget } from "./trace-budget.server";
import { decideTrace, requestSampling, untracedSamplingContext } from "./trace-sampling.server";

/** Decided on arrival (decision 0063): an untraced request skips the SDK; its error's needs are kept here. */
export interface RequestTrace {
  traced: boolean;
  traceId: string;
  sampleRand: number;
  sampleRate?: number;
  parentSpanId?: string;
  name: () => string;
  upstream?: Partial<DynamicSamplingContext>;
  /** Newest last (the SDK would have kept them on its scope). */
  breadcrumbs: Breadcrumb[];
}

const traces = new WeakMap<IncomingMessage, RequestTrace>();

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The SDK creates no span for HEAD, OPTIONS and static assets. */
export function decideRequestTrace(
  sdk: ServerSdk,
  request: IncomingMessage,
  {
    budget,
    name,
    isStaticAsset,
  }: { budget: TraceBudget; name: () => string; isStaticAsset: (url: string) => boolean },
): RequestTrace {
  const context = sdk.core.propagationContextFromHeaders(
    header(request, "sentry-trace"),
    header(request, "baggage"),
  );
  const { parentSampled, sampleRand } = requestSampling(context);
  let named: string | undefined;
  const once = () => (named ??= name());
  const method = request.method?.toUpperCase() ?? "GET";
  const spanless =
    method === "HEAD" || method === "OPTIONS" || (method === "GET" && isStaticAsset(request.url ?? "/"));
  // Spanless requests cost no span work, so they neither count towards nor spend the budget.
  const { traced, sampleRate } = spanless
    ? { traced: false, sampleRate: undefined }
    : decideTrace(
        { transactionName: once, parentSampled, sampleRand, untracedPaths: OPERATIONAL_PATHS },
        budget,
      );
  const trace: RequestTrace = {
    traced,
    traceId: context.traceId,
    name: once,
    sampleRand,
    sampleRate,
    parentSpanId: context.parentSpanId,
    upstream: context.dsc,
    breadcrumbs: [],
  };
  traces.set(request, trace);
  return trace;
}

export function requestTraceOf(request: IncomingMessage): RequestTrace | undefined {
  return traces.get(request);
}

export function untracedTrace(): RequestTrace | undefined {
  const request = currentIncomingRequest();
  const trace = request && traces.get(request);
  return trace && !trace.traced ? trace : undefined;
}

const untracedContextOf = (sdk: ServerSdk, trace: RequestTrace, sampleRate: number) =>
  untracedSamplingContext(
    sdk,
    { traceId: trace.traceId, sampleRand: trace.sampleRand, dsc: trace.upstream, transaction: trace.name() },
    trace.sampleRate ?? sampleRate,
  );

export function untracedTraceData(sdk: ServerSdk, trace: RequestTrace, sampleRate: number) {
  return {
    sentryTrace: sdk.core.generateSentryTraceHeader(trace.traceId, sdk.core.generateSpanId(), false),
    baggage: sdk.core.dynamicSamplingContextToSentryBaggageHeader(untracedContextOf(sdk, trace, sampleRate)),
  };
}

export function applyUntracedTrace(
  sdk: ServerSdk,
  scope: Scope,
  trace: RequestTrace,
  sampleRate: number,
): void {
  const request = currentIncomingRequest();
  if (request)
    scope.setSDKProcessingMetadata({ normalizedRequest: sdk.core.httpRequestToRequestData(request) });
  scope.setPropagationContext({
    traceId: trace.traceId,
    sampleRand: trace.sampleRand,
    parentSpanId: trace.parentSpanId,
    sampled: false,
    dsc: untracedContextOf(sdk, trace, sampleRate),
  });
  for (const breadcrumb of trace.breadcrumbs) scope.addBreadcrumb(breadcrumb, trace.breadcrumbs.length);
}

/** Not on the process's scope, where every later event would carry them. */
export function keepUntracedBreadcrumb(breadcrumb: Breadcrumb, max: number): Breadcrumb | null {
  const trace = untracedTrace();
  if (!trace) return breadcrumb;
  trace.breadcrumbs.push({ timestamp: Date.now() / 1000, ...breadcrumb });
  if (trace.breadcrumbs.length > max) trace.breadcrumbs.shift();
  return null;
}
