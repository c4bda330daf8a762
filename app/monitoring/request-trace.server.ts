import type { IncomingMessage } from "node:http";
import type { DynamicSamplingContext } from "@sentry/core";
import { currentIncomingRequest, requestIdOf } from "~/request-scope.server";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import { isDroppedTransaction } from "./sentry-options";
import { serverSdk, type ServerSdk } from "./server-sdk.server";
import { decideTrace, requestSampling, type TraceRates } from "./trace-sampling.server";

/** Decided on arrival (decisions 0063, 0090, 0091); an untraced request gets its own SDK scope from `runInRequestTrace`. */
export interface RequestTrace {
  traced: boolean;
  traceId: string;
  sampleRand: number;
  sampleRate: number;
  parentSpanId?: string;
  name: () => string;
  /** Names it, unless already named: from the route the framework matched, not matched again. */
  nameAs: (name: string) => void;
  upstream?: Partial<DynamicSamplingContext>;
}

const traces = new WeakMap<IncomingMessage, RequestTrace>();

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The SDK gives these no span: they neither count towards nor spend the budget. */
function spanless(request: IncomingMessage, isStaticAsset: (url: string) => boolean): boolean {
  const method = request.method?.toUpperCase() ?? "GET";
  return method === "HEAD" || method === "OPTIONS" || (method === "GET" && isStaticAsset(request.url ?? "/"));
}

/** The one decision per request. A W3C `traceparent` alone is not continued (the SDK reads `sentry-trace`): a new trace. */
export function decideRequestTrace(
  sdk: ServerSdk,
  request: IncomingMessage,
  {
    rates,
    name,
    isStaticAsset,
  }: { rates: TraceRates; name: () => string; isStaticAsset: (url: string) => boolean },
): RequestTrace {
  const context = sdk.core.propagationContextFromHeaders(
    header(request, "sentry-trace"),
    header(request, "baggage"),
  );
  const { parentSampled, sampleRand } = requestSampling(context);
  let named: string | undefined;
  const once = () => (named ??= name());
  const parentSampleRate = sdk.core.parseSampleRate(context.dsc?.sample_rate);
  const { traced, sampleRate } = spanless(request, isStaticAsset)
    ? { traced: false, sampleRate: 0 }
    : decideTrace(
        {
          parentSampled,
          parentSampleRate,
          sampleRand,
          traceable: () => !isDroppedTransaction(once(), OPERATIONAL_PATHS),
        },
        rates,
      );
  const trace: RequestTrace = {
    traced,
    traceId: context.traceId,
    name: once,
    nameAs: (given) => void (named ??= given),
    sampleRand,
    sampleRate,
    parentSpanId: context.parentSpanId,
    upstream: context.dsc && Object.keys(context.dsc).length > 0 ? context.dsc : undefined,
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

function untracedContext(trace: RequestTrace) {
  return {
    sample_rand: String(trace.sampleRand),
    sample_rate: String(trace.sampleRate),
    sampled: "false",
  } as const;
}

/** As the SDK's HTTP integration gives a traced request one: what a loader sets stays its own (given, not forked: a fork makes a trace id we replace). */
export function runInRequestTrace<T>(request: IncomingMessage, run: () => T): T {
  const trace = traces.get(request);
  const sdk = serverSdk();
  if (!sdk || !trace || trace.traced) return run();
  return sdk.node.withIsolationScope(sdk.node.getIsolationScope().clone(), (isolationScope) => {
    isolationScope.setTag("request_id", requestIdOf(request));
    sdk.node.getCurrentScope().setPropagationContext({
      traceId: trace.traceId,
      sampleRand: trace.sampleRand,
      parentSpanId: trace.parentSpanId,
      sampled: false,
      dsc: trace.upstream && { ...trace.upstream, ...untracedContext(trace) },
    });
    return run();
  });
}

/** A new untraced trace's sampling context, completed when the SDK makes it: named only if asked. */
export function completeUntracedContext(sdk: ServerSdk): void {
  sdk.node.getClient()?.on("createDsc", (dsc, rootSpan) => {
    const trace = rootSpan ? undefined : untracedTrace();
    if (!trace || trace.upstream || dsc.trace_id !== trace.traceId) return;
    Object.assign(dsc, untracedContext(trace), { transaction: trace.name() });
  });
}
