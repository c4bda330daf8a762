import * as Sentry from "@sentry/node";
import { instanceName, sentryEnvironment, type Env } from "~/env.server";
import { routePatternOf } from "~/routing/request-route.server";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import { sharedSentryOptions } from "./sentry-options";
import { ingestHttpModule, transportWithBackoff } from "./sentry-transport.server";
import { contextIntegration } from "./sentry-context.server";
import { decideRequestSampling } from "./request-sampling.server";

/**
 * The server side of Sentry. The boot (server/boot.ts) calls
 * `initServerSentry` before remix-serve loads the app; everything else here is
 * a no-op while Sentry is off (no DSN).
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
    preprocessEvent(event: Sentry.Event) {
      const trace = event.contexts?.trace;
      if (event.type !== "transaction" || trace?.op !== "http.server") return;
      const data = (trace.data ?? {}) as Record<string, unknown>;
      const method = typeof data["http.method"] === "string" ? data["http.method"] : "GET";
      const url = URL.canParse(String(data["http.url"])) ? new URL(String(data["http.url"])) : undefined;
      if (!url) return;
      const route = routePatternOf(url);
      event.transaction = serverTransactionName(method, url, route);
      event.transaction_info = { source: "route" };
      data["http.route"] = route;
    },
  };
}

/**
 * The HTTP integration asks this before it creates a request's span: an
 * untraced request then gets no span at all (request-sampling.server.ts).
 */
function skipsRequestSpan(sampleRate: number) {
  return (
    urlPath: string,
    request: { method?: string; headers: Record<string, string | string[] | undefined> },
  ): boolean => {
    const url = new URL(urlPath, "http://localhost");
    const transactionName = serverTransactionName(request.method ?? "GET", url);
    return !decideRequestSampling(request.headers["sentry-trace"], transactionName, sampleRate);
  };
}

export function initServerSentry(env: Env): void {
  if (!env.SENTRY_DSN) return;
  const shared = sharedSentryOptions(env, OPERATIONAL_PATHS);
  Sentry.init({
    ...shared,
    transport: transportWithBackoff,
    transportOptions: {
      ...shared.transportOptions,
      httpModule: ingestHttpModule(env.SENTRY_DSN),
      // Reuse connections to the ingest: at 100 % tracing a new TCP (and TLS)
      // connection per transaction was a measurable share of each request's
      // CPU. The SDK's agent closes sockets idle for 2 s, well inside any
      // ingest's keep-alive window, so a send rarely meets a closed socket.
      keepAlive: true,
    },
    environment: sentryEnvironment(env),
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
  Sentry.withScope((scope) => {
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
