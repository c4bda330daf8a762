import http from "node:http";
import https from "node:https";
import type { Contexts, Integration, Scope, Transport } from "@sentry/core";
import { getDynamicSamplingContextFromClient, getDynamicSamplingContextFromSpan } from "@sentry/core";
import * as Sentry from "@sentry/node";
import { instanceName, type Env } from "~/env.server";
import { instrumentRemixServer } from "./remix-spans.server";
import { routePatternOf } from "./request-context.server";
import { OPERATIONAL_PATHS } from "./route-patterns";
import { SENTRY_LIMITS, sharedSentryOptions } from "./sentry-options";
import { isRequestTraced, requestSampling } from "./trace-sampling";

/**
 * The server side of Sentry. `instrument.server.ts` calls `initServerSentry`
 * before remix-serve loads the app; everything else here is a no-op while
 * Sentry is off (no DSN).
 */

/**
 * Default integrations left out (bench/README.md, "Where the time goes"):
 * - Express: remix-serve's middlewares would each become a transaction of their
 *   own (query, expressInit, serveStatic…); the HTTP integration's span is the request.
 * - Modules: attaches the list of every installed package to every event and
 *   transaction, paid for in serialisation on each request.
 * - Context: replaced by contextIntegration below (the same, cheaper for transactions).
 */
const OMITTED_INTEGRATIONS = new Set(["Express", "Modules", "Context"]);

/** How old the memory figures on a transaction may be (errors always get fresh ones). */
export const TRANSACTION_CONTEXT_MAX_AGE_MS = 1_000;

/**
 * The SDK's Context integration (runtime, OS, device, memory), with the memory
 * read at most once per `maxAgeMs` for transactions. It reads the process's
 * memory for every event (`process.memoryUsage()`, `process.availableMemory()`,
 * `os.freemem()`): about 0.14 ms of CPU per transaction here, a tenth of what
 * a traced request costs the server. Error events still get fresh figures.
 */
export function contextIntegration(
  inner: Integration = Sentry.nodeContextIntegration(),
  maxAgeMs = TRANSACTION_CONTEXT_MAX_AGE_MS,
): Integration {
  let cached: { at: number; contexts: Contexts } | undefined;
  return {
    ...inner,
    async processEvent(event, hint, client) {
      if (event.type !== "transaction" || !inner.processEvent)
        return inner.processEvent?.(event, hint, client) ?? event;
      if (!cached || Date.now() - cached.at > maxAgeMs) {
        const probe = await inner.processEvent({ type: "transaction", contexts: {} }, hint, client);
        cached = { at: Date.now(), contexts: probe?.contexts ?? {} };
      }
      // The integration's own merge: what the event already has wins.
      const own = event.contexts ?? {};
      event.contexts = { ...own };
      for (const [name, context] of Object.entries(cached.contexts)) {
        event.contexts[name] = { ...context, ...own[name] };
      }
      return event;
    },
  };
}

/** How long one send to the ingest may take before it is abandoned. */
export const INGEST_TIMEOUT_MS = 5_000;

/**
 * The SDK's HTTP transport waits forever for an ingest that accepts a
 * connection and never answers: its 64-send buffer then stays full and every
 * later event is dropped, even after the ingest recovers. This bounds each send.
 */
function requestWithTimeout(module: typeof http | typeof https) {
  return {
    request(options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) {
      const request = module.request(options, callback);
      request.setTimeout(INGEST_TIMEOUT_MS, () => request.destroy(new Error("Sentry ingest timed out")));
      return request;
    },
  };
}

/** After a send fails at the network level, sends are skipped this long (the SDK's own rate-limit default). */
export const INGEST_BACKOFF_MS = SENTRY_LIMITS.defaultRateLimitBackoffSeconds * 1000;

/**
 * The SDK's transport, paused for INGEST_BACKOFF_MS after a send fails at
 * the network level (refused, unreachable, timed out): the SDK would otherwise
 * open a new connection for every event and transaction while the ingest is
 * down, which costs the app's requests CPU for nothing. Events during the
 * pause are dropped, as during a rate limit.
 */
function transportWithBackoff(options: Parameters<typeof Sentry.makeNodeTransport>[0]): Transport {
  const transport = Sentry.makeNodeTransport(options);
  let pausedUntil = 0;
  return {
    ...transport,
    send(envelope) {
      if (Date.now() < pausedUntil) return Promise.resolve({});
      return Promise.resolve(transport.send(envelope)).catch((error: unknown) => {
        pausedUntil = Date.now() + INGEST_BACKOFF_MS;
        throw error;
      });
    },
  };
}

/** Paths whose requests are never traced: operational endpoints, not pages. */
export const UNTRACED_PATHS = OPERATIONAL_PATHS;

/** `GET /fixtures/items/:id`: the method and the full route pattern, as the browser names the page. */
export function serverTransactionName(method: string, url: URL): string {
  return `${method.toUpperCase()} ${routePatternOf(url) ?? url.pathname}`;
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
    preprocessEvent(event: Sentry.Event) {
      const trace = event.contexts?.trace;
      if (event.type !== "transaction" || trace?.op !== "http.server") return;
      const data = (trace.data ?? {}) as Record<string, unknown>;
      const method = typeof data["http.method"] === "string" ? data["http.method"] : "GET";
      const url = URL.canParse(String(data["http.url"])) ? new URL(String(data["http.url"])) : undefined;
      if (!url) return;
      event.transaction = serverTransactionName(method, url);
      event.transaction_info = { source: "route" };
      data["http.route"] = routePatternOf(url);
    },
  };
}

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
 * The HTTP integration asks this before it creates a request's span. The
 * request's isolation scope and trace already exist here (the integration
 * continued any incoming trace), so the decision of trace-sampling.ts can be
 * made once, from the same inputs the SDK's sampler uses.
 */
function skipsRequestSpan(sampleRate: number) {
  return (
    urlPath: string,
    request: { method?: string; headers: Record<string, string | string[] | undefined> },
  ): boolean => {
    const url = new URL(urlPath, "http://localhost");
    const scope = Sentry.getCurrentScope();
    const remote = Sentry.getActiveSpan();
    const { parentSampled, sampleRand } = requestSampling(
      headerValue(request.headers["sentry-trace"]),
      scope.getPropagationContext().sampleRand,
      remote && { sampleRand: getDynamicSamplingContextFromSpan(remote).sample_rand },
    );
    const traced = isRequestTraced({
      transactionName: serverTransactionName(request.method ?? "GET", url),
      parentSampled,
      sampleRand,
      sampleRate,
      untracedPaths: UNTRACED_PATHS,
    });
    freezeDecision(scope, sampleRate, sampleRand, traced);
    return !traced;
  };
}

export function initServerSentry(env: Env): void {
  if (!env.SENTRY_DSN) return;
  const shared = sharedSentryOptions(env, UNTRACED_PATHS);
  Sentry.init({
    ...shared,
    transport: transportWithBackoff,
    transportOptions: {
      ...shared.transportOptions,
      httpModule: requestWithTimeout(env.SENTRY_DSN.startsWith("https:") ? https : http),
      // Reuse connections to the ingest: at 100 % tracing a new TCP (and TLS)
      // connection per transaction was a measurable share of each request's
      // CPU. The SDK's agent closes sockets idle for 2 s, well inside any
      // ingest's keep-alive window, so a send rarely meets a closed socket.
      keepAlive: true,
    },
    environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
    // The same name as the log lines' `instance` (the SDK's default is the host name).
    serverName: instanceName(env),
    integrations: (defaults) => [
      ...defaults.filter((integration) => !OMITTED_INTEGRATIONS.has(integration.name)),
      // No cookies, bodies or IP addresses on events; headers are filtered by scrubEvent.
      Sentry.requestDataIntegration({ include: { cookies: false, data: false, ip: false } }),
      // The request span (op `http.server`), only for requests the server traces.
      // Nothing is dropped by status: a 404 thrown by a real route keeps its
      // transaction, and the catch-all's requests are never traced.
      Sentry.httpIntegration({
        ignoreIncomingRequests: skipsRequestSpan(env.SENTRY_TRACES_SAMPLE_RATE),
        maxIncomingRequestBodySize: "none",
        dropSpansForIncomingRequestStatusCodes: [],
        // Release-health sessions per request cost work on every request; errors and traces do not need them.
        trackIncomingRequestsAsSessions: false,
      }),
      routeNamesIntegration(),
      contextIntegration(),
    ],
  });
  instrumentRemixServer();
}

/**
 * Reports one unexpected server error: exactly one event, `handled: false`,
 * tagged with the digest shown on the page and written in the log line.
 */
export function captureServerError(
  error: unknown,
  { digest, requestId, request }: { digest: string; requestId: string; request: Request },
): void {
  Sentry.withScope((scope) => {
    scope.setTag("digest", digest);
    scope.setTag("request_id", requestId);
    scope.setTransactionName(serverTransactionName(request.method, new URL(request.url)));
    // The mechanism goes in the hint alone: a hint that also carries tags is
    // read as scope data and the mechanism is dropped.
    Sentry.captureException(error, {
      mechanism: { type: "auto.function.remix.server", handled: false, data: { function: "handleError" } },
    });
  });
}

/** `sentry-trace` and `baggage` for the page's meta tags, so the page load continues the server's trace. */
export function traceMetaData(): { sentryTrace?: string; baggage?: string } {
  if (!Sentry.getClient()) return {};
  const data = Sentry.getTraceData();
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
  return Sentry.getClient() ? Sentry.flush(timeoutMs) : Promise.resolve(true);
}
