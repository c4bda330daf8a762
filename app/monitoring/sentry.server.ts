import type { IncomingMessage } from "node:http";
import type { Span } from "@sentry/core";
import type { DataCollection } from "@sentry/core";
import { instanceName, outboundProxy, sentryEnvironment, type Env } from "~/env.server";
import { routePatternOf } from "~/routing/request-route.server";
import { NOT_FOUND_PATTERN } from "~/routing/route-patterns";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import { ALLOWED_REQUEST_HEADERS, SENTRY_LIMITS, sharedSentryOptions } from "./sentry-options";
import { ingestTransport } from "./sentry-transport.server";
import { contextIntegration } from "./sentry-context.server";
import { decideRequestSampling } from "./trace-sampling.server";
import { loadServerSdk, serverSdk, type ServerSdk } from "./server-sdk.server";
import {
  applyUntracedTrace,
  decideRequestTrace,
  keepUntracedBreadcrumb,
  requestTraceOf,
  untracedTrace,
  untracedTraceData,
} from "./request-trace.server";

/**
 * The server side of Sentry (`@sentry/node`; the browser's SDK differs, docs/decisions/0058).
 * Without a DSN nothing of `@sentry/*` is loaded and everything here is a no-op,
 * so this module imports Sentry's types only.
 */

/**
 * What the server SDK may collect, set in full: its defaults collect everything
 * (cookies, all headers, bodies, IP addresses, local variables). `scrubEvent`
 * (sentry-options.ts) filters every event again.
 */
export const SERVER_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: { request: { allow: [...ALLOWED_REQUEST_HEADERS] }, response: false },
  httpBodies: [],
  // Kept, with the SDK's filter of sensitive-looking values.
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
 * Default integrations left out:
 * - Express: each of the server's middlewares would become a transaction; the HTTP span is the request.
 * - Modules: every installed package's name on every event, serialised on each request.
 * - Context: replaced by contextIntegration below (cheaper for transactions).
 * - Dedupe: each request's failure is its own event (digest, request id), but the
 *   same loader failing twice gives identical stacks and Dedupe drops the second.
 */
const OMITTED_INTEGRATIONS = new Set(["Express", "Modules", "Context", "Dedupe"]);

/** `GET /fixtures/items/:id`: the method and the full route pattern, as the browser names the page. */
function serverTransactionName(method: string, url: URL, route = routePatternOf(url)): string {
  return `${method.toUpperCase()} ${route ?? url.pathname}`;
}

/** Where Sentry 11 reads a transaction's name source from (`transaction_info.source`, the DSC's `transaction`). */
const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";

/**
 * Names the request's span `<METHOD> <full pattern>`, source `route`, as the
 * HTTP integration creates it: before the page's meta tags, `Server-Timing` or
 * an outgoing request read the trace's sampling context, which then carries
 * the name (the SDK leaves out a name whose source is `url`).
 */
function nameRequestSpan(span: Span, request: { method?: string; url?: string }): void {
  const url = URL.parse(request.url ?? "/", "http://localhost");
  const route = url && routePatternOf(url);
  if (!route) return;
  span.updateName(serverTransactionName(request.method ?? "GET", url, route));
  span.setAttributes({ [SEGMENT_NAME_SOURCE]: "route", "http.route": route });
}

/**
 * The HTTP integration asks this before it creates a request's span. The scope
 * takes the number the request was decided by on arrival (request-trace.server.ts),
 * so the SDK's sampler agrees; an undecided request is decided here.
 */
function skipsRequestSpan(sdk: ServerSdk, sampleRate: number) {
  return (urlPath: string, request: object): boolean => {
    const trace = requestTraceOf(request as IncomingMessage);
    if (!trace) {
      const method = (request as { method?: string }).method ?? "GET";
      const name = () => serverTransactionName(method, new URL(urlPath, "http://localhost"));
      return !decideRequestSampling(sdk, name, sampleRate);
    }
    const scope = sdk.node.getCurrentScope();
    scope.setPropagationContext({
      ...scope.getPropagationContext(),
      traceId: trace.traceId,
      sampleRand: trace.sampleRand,
    });
    return !trace.traced;
  };
}

/**
 * With Sentry on, decides each request's trace as it arrives (the boot hands
 * this to server/adapter/sentry-request-bypass.ts): true when the SDK's HTTP
 * instrumentation should handle the request, false when it is not traced.
 */
export function requestTraceDecider(env: Env): ((request: IncomingMessage) => boolean) | undefined {
  const sdk = serverSdk();
  if (!env.SENTRY_DSN || !sdk) return undefined;
  const options = {
    sampleRate: env.SENTRY_TRACES_SAMPLE_RATE,
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

/** `SENTRY_TRACES_SAMPLE_RATE`, as the SDK was started with. */
const sampleRateOf = (sdk: ServerSdk) => sdk.node.getClient()?.getOptions().tracesSampleRate ?? 0;

/** Starts Sentry when SENTRY_DSN is set: the only place the SDK is loaded. */
export async function initServerSentry(env: Env): Promise<void> {
  if (!env.SENTRY_DSN) return;
  const sdk = await loadServerSdk();
  const Sentry = sdk.node;
  const shared = sharedSentryOptions(env, OPERATIONAL_PATHS);
  Sentry.init({
    ...shared,
    dataCollection: SERVER_DATA_COLLECTION,
    // Transactions, not span streaming (docs/decisions/0057): streaming would skip
    // beforeSendTransaction and the event processors below (names, contexts, scrubbing).
    traceLifecycle: "static",
    // No OpenTelemetry tracer provider: the SDK's own spans.
    enableOpenTelemetrySetup: false,
    // No code injected into loaded packages: Express spans are left out, Remix
    // gets the app's own, and the hook would read and hash every module loaded.
    enableRuntimeChannelInjection: false,
    transport: ingestTransport(sdk, { proxy: outboundProxy(env) }),
    transportOptions: {
      ...shared.transportOptions,
      // A new connection per transaction costs each traced request CPU; the SDK's
      // agent closes idle sockets well inside any ingest's keep-alive window.
      keepAlive: true,
    },
    environment: sentryEnvironment(env),
    beforeBreadcrumb: (breadcrumb) => keepUntracedBreadcrumb(breadcrumb, SENTRY_LIMITS.maxBreadcrumbs),
    // The same name as the log lines' `instance` (the SDK's default is the host name).
    serverName: instanceName(env),
    integrations: (defaults) => [
      ...defaults.filter((integration) => !OMITTED_INTEGRATIONS.has(integration.name)),
      // The request span, only for traced requests. Nothing is dropped by status:
      // a real route's 404 keeps its transaction; the catch-all's are never traced.
      Sentry.httpIntegration({
        ignoreIncomingRequests: skipsRequestSpan(sdk, env.SENTRY_TRACES_SAMPLE_RATE),
        onSpanCreated: nameRequestSpan,
        maxRequestBodySize: "none",
        ignoreStatusCodes: [],
        // Release-health sessions per request cost work on every request; errors and traces do not need them.
        sessions: false,
      }),
      contextIntegration(Sentry.nodeContextIntegration()),
    ],
  });
}

/**
 * Reports one unexpected server error: exactly one event, `handled: false`,
 * tagged with the digest shown on the page and written in the log line.
 */
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
    // An untraced request has no scope of the SDK's: what it would have held comes from the request's own.
    const untraced = untracedTrace();
    if (untraced) applyUntracedTrace(sdk, scope, untraced, sampleRateOf(sdk));
    scope.setTag("digest", digest);
    scope.setTag("request_id", requestId);
    scope.setTransactionName(serverTransactionName(request.method, new URL(request.url), route));
    // The mechanism goes in the hint alone: a hint that also carries tags is
    // read as scope data and the mechanism is dropped.
    Sentry.captureException(error, {
      mechanism: { type: "auto.function.remix.server", handled: false, data: { function: "handleError" } },
    });
  });
}

/** `sentry-trace` and `baggage` for the page's meta tags, so the page load continues the server's trace. */
export function traceMetaData(): { sentryTrace?: string; baggage?: string } {
  const sdk = serverSdk();
  if (!sdk?.node.getClient()) return {};
  const untraced = untracedTrace();
  if (untraced) return untracedTraceData(sdk, untraced, sampleRateOf(sdk));
  const data = sdk.node.getTraceData();
  return { sentryTrace: data["sentry-trace"], baggage: data.baggage };
}

/**
 * `Server-Timing: sentry-trace;desc="…", baggage;desc="…"`: the browser SDK reads it
 * when a page has no trace meta tags (an error page without root data).
 */
export function traceServerTiming({ sentryTrace, baggage }: { sentryTrace?: string; baggage?: string }) {
  if (!sentryTrace) return undefined;
  return baggage
    ? `sentry-trace;desc="${sentryTrace}", baggage;desc="${baggage}"`
    : `sentry-trace;desc="${sentryTrace}"`;
}

/** Sends what is buffered, waiting at most `timeoutMs`. */
export function flushServerSentry(timeoutMs: number): Promise<boolean> {
  const Sentry = serverSdk()?.node;
  return Sentry?.getClient() ? Sentry.flush(timeoutMs) : Promise.resolve(true);
}
