import type { IncomingMessage } from "node:http";
import type { Span } from "@sentry/core";
import type { DataCollection } from "@sentry/core";
import { instanceName, outboundProxy, sentryEnvironment, type Env } from "~/env.server";
import { routePatternOf } from "~/routing/request-route.server";
import { NOT_FOUND_PATTERN } from "~/routing/route-patterns";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import { requestIdOf } from "~/request-scope.server";
import { readActiveSpanIdWith } from "~/logging/request-log-fields.server";
import { ThrownResponse } from "~/errors/thrown-response.server";
import { ALLOWED_REQUEST_HEADERS, SENTRY_LIMITS, sharedSentryOptions } from "./sentry-options";
import { ingestTransport } from "./sentry-transport.server";
import { contextIntegration } from "./sentry-context.server";
import { decideRequestSampling } from "./trace-sampling.server";
import { followUntracedTraces, sentryLogsOptions } from "./sentry-logs.server";
import { traceBudget, type TraceBudget } from "./trace-budget.server";
import { sdkTraceSampler, type SdkTraceSampler } from "./sdk-trace-sampler.server";
import { loadServerSdk, serverSdk, type ServerSdk } from "./server-sdk.server";
import {
  applyUntracedTrace,
  decideRequestTrace,
  keepUntracedBreadcrumb,
  requestTraceOf,
  untracedTrace,
  untracedTraceData,
} from "./request-trace.server";
import { tracePropagationTargets } from "~/http/trace-propagation-targets.server";
import { untracedFetchHook, untracedHttpHook } from "./untraced-propagation.server";

/** The server side of Sentry. Without a DSN nothing of `@sentry/*` is loaded, so only its types are imported. */

/** Set in full: the SDK's defaults collect everything (cookies, headers, bodies, IPs, local variables). */
export const SERVER_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: { request: { allow: [...ALLOWED_REQUEST_HEADERS] }, response: false },
  httpBodies: [],
  urlQueryParams: true,
  graphQL: { document: false, variables: false },
  genAI: { inputs: false, outputs: false },
  mcp: { inputs: false, outputs: false },
  databaseQueryData: false,
  queues: false,
  stackFrameVariables: false,
  frameContextLines: 7,
} as const satisfies Required<DataCollection>;

/**
 * Express: each middleware would become a transaction. Modules: every package name on every event.
 * Context: replaced by contextIntegration. Dedupe: the same loader failing twice has identical stacks,
 * yet each request's failure is its own event.
 */
const OMITTED_INTEGRATIONS = new Set(["Express", "Modules", "Context", "Dedupe"]);

function serverTransactionName(method: string, url: URL, route = routePatternOf(url)): string {
  return `${method.toUpperCase()} ${route ?? url.pathname}`;
}

const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";

/**
 * Names the span as it is created: the trace's sampling context, read later by the meta tags,
 * `Server-Timing` or an outgoing request, carries the name only when its source is not `url`.
 */
function nameRequestSpan(span: Span, request: { method?: string; url?: string }): void {
  const url = URL.parse(request.url ?? "/", "http://localhost");
  const route = url && routePatternOf(url);
  if (!route) return;
  span.updateName(serverTransactionName(request.method ?? "GET", url, route));
  span.setAttributes({ [SEGMENT_NAME_SOURCE]: "route", "http.route": route });
}

/** The request's isolation scope, so its transaction carries the id its log lines and response do. */
function tagRequestSpan(sdk: ServerSdk) {
  return (span: Span, request: object): void => {
    nameRequestSpan(span, request);
    // The SDK's own type for Node's request.
    sdk.node.getIsolationScope().setTag("request_id", requestIdOf(request as IncomingMessage));
  };
}

/** How new traces are rated: shared by the arrival decision and the SDK's sampler (docs/decisions/0080). */
interface TraceRates {
  budget: TraceBudget;
  sdkSampler: SdkTraceSampler;
  configuredRate: number;
}
let traceRates: TraceRates | undefined;

/**
 * The scope takes the number the request was decided by on arrival, and the SDK's sampler the rate,
 * so the SDK agrees and records that rate.
 */
function skipsRequestSpan(sdk: ServerSdk, rates: TraceRates) {
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

/** Decides each request's trace as it arrives: true when the SDK's HTTP instrumentation should handle it. */
export function requestTraceDecider(env: Env): ((request: IncomingMessage) => boolean) | undefined {
  const sdk = serverSdk();
  if (!env.SENTRY_DSN || !sdk || !traceRates) return undefined;
  const options = {
    budget: traceRates.budget,
    isStaticAsset: sdk.server.isStaticAssetRequest,
  };
  return (request) =>
    decideRequestTrace(sdk, request, {
      ...options,
      // A target that is no URL (`/\\3%E9`) gets 400 from the pre-app guards: never traced.
      name: () => {
        const url = URL.parse(request.url ?? "/", "http://localhost");
        return url ? serverTransactionName(request.method ?? "GET", url) : `GET ${NOT_FOUND_PATTERN}`;
      },
    }).traced;
}

const sampleRateOf = (sdk: ServerSdk) => sdk.node.getClient()?.getOptions().tracesSampleRate ?? 0;

export async function initServerSentry(env: Env): Promise<void> {
  if (!env.SENTRY_DSN) return;
  const sdk = await loadServerSdk();
  const Sentry = sdk.node;
  const shared = sharedSentryOptions(env, OPERATIONAL_PATHS);
  const logs = sentryLogsOptions(sdk, env);
  const budget = traceBudget(env.SENTRY_TRACES_SAMPLE_RATE, env.SENTRY_TRACES_PER_SECOND);
  const sdkSampler = sdkTraceSampler(budget, () => Sentry.getCurrentScope().getPropagationContext());
  const rates = (traceRates = { budget, sdkSampler, configuredRate: env.SENTRY_TRACES_SAMPLE_RATE });
  Sentry.init({
    ...shared,
    // Each new trace's rate, decided on arrival within SENTRY_TRACES_PER_SECOND.
    tracesSampler: sdkSampler.sampler,
    dataCollection: SERVER_DATA_COLLECTION,
    // Span streaming would skip beforeSendTransaction and the event processors (docs/decisions/0057).
    traceLifecycle: "static",
    enableOpenTelemetrySetup: false,
    // The default, stated: the channel injection gives database clients their spans (docs/decisions/0079).
    enableRuntimeChannelInjection: true,
    transport: ingestTransport(sdk, { proxy: outboundProxy(env) }),
    transportOptions: {
      ...shared.transportOptions,
      // A new connection per transaction costs each traced request CPU.
      keepAlive: true,
    },
    environment: sentryEnvironment(env),
    beforeBreadcrumb: (breadcrumb) => keepUntracedBreadcrumb(breadcrumb, SENTRY_LIMITS.maxBreadcrumbs),
    // The same name as the log lines' `instance`.
    serverName: instanceName(env),
    // Only the team's own services learn the trace (docs/configuration.md); W3C for non-Sentry ones.
    tracePropagationTargets: tracePropagationTargets(env),
    propagateTraceparent: true,
    beforeSendLog: logs.beforeSendLog,
    integrations: (defaults) => [
      ...logs.integrations,
      ...defaults.filter((integration) => !OMITTED_INTEGRATIONS.has(integration.name)),
      // Nothing dropped by status: a real route's 404 keeps its transaction.
      Sentry.httpIntegration({
        ignoreIncomingRequests: skipsRequestSpan(sdk, rates),
        onSpanCreated: tagRequestSpan(sdk),
        maxRequestBodySize: "none",
        ignoreStatusCodes: [],
        // Release-health sessions cost work on every request.
        sessions: false,
        outgoingRequestHook: untracedHttpHook(sdk),
      }),
      Sentry.nativeNodeFetchIntegration({
        requestHook: untracedFetchHook(sdk),
      }),
      contextIntegration(Sentry.nodeContextIntegration()),
    ],
  });
  followUntracedTraces(sdk, env);
  readActiveSpanIdWith(() => Sentry.getActiveSpan()?.spanContext().spanId);
}

/** Exactly one event, `handled: false`, tagged with the digest shown on the page and in the log line. */
export function captureServerError(
  error: unknown,
  {
    digest,
    requestId,
    request,
    route,
  }: { digest: string; requestId: string; request: Request; route: string | undefined },
): void {
  const sdk = serverSdk();
  if (!sdk) return;
  const Sentry = sdk.node;
  Sentry.withScope((scope) => {
    const untraced = untracedTrace();
    if (untraced) applyUntracedTrace(sdk, scope, untraced, sampleRateOf(sdk));
    scope.setTag("digest", digest);
    scope.setTag("request_id", requestId);
    // Status, keys, type and length: what the title leaves out (never the body, unless opted in).
    if (error instanceof ThrownResponse) scope.setContext("thrown_response", { ...error.answer });
    scope.setTransactionName(serverTransactionName(request.method, new URL(request.url), route));
    // A hint that also carries tags is read as scope data and the mechanism is dropped.
    Sentry.captureException(error, {
      mechanism: { type: "auto.function.remix.server", handled: false, data: { function: "handleError" } },
    });
  });
}

/** For the page's meta tags, so the page load continues the server's trace. */
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

export function flushServerSentry(timeoutMs: number): Promise<boolean> {
  const Sentry = serverSdk()?.node;
  return Sentry?.getClient() ? Sentry.flush(timeoutMs) : Promise.resolve(true);
}
