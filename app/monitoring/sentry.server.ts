import type { IncomingMessage } from "node:http";
import type { Event } from "@sentry/core";
import type { DataCollection } from "@sentry/core";
import { instanceName, outboundProxy, sentryEnvironment, type Env } from "~/env.server";
import { routePatternOf } from "~/routing/request-route.server";
import { NOT_FOUND_PATTERN } from "~/routing/route-patterns";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import { ALLOWED_REQUEST_HEADERS, SENTRY_LIMITS, sharedSentryOptions } from "./sentry-options";
import { ingestTransport } from "./sentry-transport.server";
import { contextIntegration } from "./sentry-context.server";
import { decideRequestSampling } from "./request-sampling.server";
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
 * The server side of Sentry (`@sentry/node` 11; the browser keeps
 * `@sentry/remix` 10, docs/decisions/0058). The boot (server/boot.ts) awaits
 * `initServerSentry` before remix-serve loads the app: with a DSN it loads the
 * SDK and starts it; without one nothing of `@sentry/*` is ever loaded and
 * everything else here is a no-op. This module imports Sentry's types only.
 */

/**
 * What the server SDK may collect, set in full: v11's defaults collect
 * everything (cookies, all headers, bodies, the user's IP address, local
 * variables…). The same as before v11 with `sendDefaultPii: false`, stricter
 * where that allowed more: request headers from the allowlist only, no
 * response headers, no bodies. `scrubEvent` (sentry-options.ts) filters every
 * event again.
 */
export const SERVER_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: { request: { allow: [...ALLOWED_REQUEST_HEADERS] }, response: false },
  httpBodies: [],
  // As before: query strings kept, with the SDK's filter of sensitive-looking values.
  urlQueryParams: true,
  graphQL: { document: false, variables: false },
  genAI: { inputs: false, outputs: false },
  mcp: { inputs: false, outputs: false },
  databaseQueryData: false,
  queues: false,
  stackFrameVariables: false,
  // The v10 SDK's default number of source lines around each stack frame.
  frameContextLines: 7,
} as const satisfies Required<DataCollection>;

/**
 * Default integrations left out (bench/README.md, "Where the time goes"):
 * - Express: remix-serve's middlewares would each become a transaction of their
 *   own (query, expressInit, serveStatic…); the HTTP integration's span is the request.
 * - Modules: attaches the list of every installed package to every event and
 *   transaction, paid for in serialisation on each request.
 * - Context: replaced by contextIntegration below (the same, cheaper for transactions).
 * - Dedupe: drops an error event whose message and stack equal the previous
 *   event's, whichever request that came from. Every server error is captured
 *   once, by the app's handleError, and each request's failure is its own
 *   event (its digest, its request id): with v11 the same loader failing on a
 *   document request and then on a single fetch gives identical stacks, and
 *   the second failure was lost (e2e/sentry-privacy.spec.ts).
 */
const OMITTED_INTEGRATIONS = new Set(["Express", "Modules", "Context", "Dedupe"]);

/** `GET /fixtures/items/:id`: the method and the full route pattern, as the browser names the page. */
function serverTransactionName(method: string, url: URL, route = routePatternOf(url)): string {
  return `${method.toUpperCase()} ${route ?? url.pathname}`;
}

/**
 * Names server transactions `<METHOD> <full pattern>`. The SDK names them
 * after the leaf route's relative path (`GET fixtures/items/:id`, `GET *` for
 * `/_root.data`, a full URL for `/`). It runs in `preprocessEvent`, before the
 * SDK compares names, so the source stays `route` instead of `custom`.
 */
function routeNamesIntegration() {
  return {
    name: "RouteNames",
    preprocessEvent(event: Event) {
      const trace = event.contexts?.trace;
      if (event.type !== "transaction" || trace?.op !== "http.server") return;
      const data = (trace.data ?? {}) as Record<string, unknown>;
      // The v11 SDK's attribute names (OpenTelemetry's current conventions).
      const method = typeof data["http.request.method"] === "string" ? data["http.request.method"] : "GET";
      const url = URL.parse(String(data["url.full"]));
      if (!url) return;
      const route = routePatternOf(url);
      event.transaction = serverTransactionName(method, url, route);
      event.transaction_info = { source: "route" };
      data["http.route"] = route;
    },
  };
}

/**
 * The HTTP integration asks this before it creates a request's span. Only
 * requests decided traced when they arrived reach it (request-trace.server.ts);
 * their scope takes the number they were decided by, so the SDK's sampler
 * agrees. A request nobody decided for (none so far) is decided here.
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

/**
 * Starts Sentry when SENTRY_DSN is set: loads the SDK (the only place it is
 * loaded) and initialises it. The boot awaits this before remix-serve loads.
 */
export async function initServerSentry(env: Env): Promise<void> {
  if (!env.SENTRY_DSN) return;
  const sdk = await loadServerSdk();
  const Sentry = sdk.node;
  const shared = sharedSentryOptions(env, OPERATIONAL_PATHS);
  Sentry.init({
    ...shared,
    dataCollection: SERVER_DATA_COLLECTION,
    // Transactions, as before v11 (docs/decisions/0057): what self-hosted
    // Sentry before 26.4.2 ingests, and what beforeSendTransaction and the
    // event processors below (names, contexts, scrubbing) see. Span streaming
    // would skip all of them.
    traceLifecycle: "static",
    // No OpenTelemetry tracer provider (v11's default, stated): the SDK's own spans.
    enableOpenTelemetrySetup: false,
    // No code injected into loaded packages (diagnostics channels for Express,
    // Remix, database clients…): Express spans are left out, Remix gets the
    // app's own spans, and the hook would read and hash every module loaded.
    enableRuntimeChannelInjection: false,
    transport: ingestTransport(sdk, { proxy: outboundProxy(env) }),
    transportOptions: {
      ...shared.transportOptions,
      // Reuse connections to the ingest: at 100 % tracing a new TCP (and TLS)
      // connection per transaction was a measurable share of each request's
      // CPU. The SDK's agent closes sockets idle for 2 s, well inside any
      // ingest's keep-alive window, so a send rarely meets a closed socket.
      keepAlive: true,
    },
    environment: sentryEnvironment(env),
    beforeBreadcrumb: (breadcrumb) => keepUntracedBreadcrumb(breadcrumb, SENTRY_LIMITS.maxBreadcrumbs),
    // The same name as the log lines' `instance` (the SDK's default is the host name).
    serverName: instanceName(env),
    integrations: (defaults) => [
      ...defaults.filter((integration) => !OMITTED_INTEGRATIONS.has(integration.name)),
      // The request span (op `http.server`), only for requests the server traces.
      // Nothing is dropped by status: a 404 thrown by a real route keeps its
      // transaction, and the catch-all's requests are never traced.
      Sentry.httpIntegration({
        ignoreIncomingRequests: skipsRequestSpan(sdk, env.SENTRY_TRACES_SAMPLE_RATE),
        maxRequestBodySize: "none",
        ignoreStatusCodes: [],
        // Release-health sessions per request cost work on every request; errors and traces do not need them.
        sessions: false,
      }),
      routeNamesIntegration(),
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
 * `Server-Timing: sentry-trace;desc="…", baggage;desc="…"`: the browser SDK
 * reads it from the navigation's timing when a page has no trace meta tags
 * (an error page rendered without root data), so that page load still
 * continues the document request's trace.
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
