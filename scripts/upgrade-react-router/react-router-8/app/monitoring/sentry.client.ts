import * as Sentry from "@sentry/react";
import type { ErrorInfo } from "react";
import type { PublicEnv } from "~/env.server";
import { browserRoutePattern } from "~/routing/route-pattern.client";
import { sharedSentryOptions } from "./sentry-options";
import { pageBaggage, traceSamplerFromPage } from "./trace-rate.client";

/** Loaded before hydration, so errors are reported from the first moment; tracing and feedback follow after it. */

/** Set in full: v11's defaults collect everything; as v10 without PII, the user agent and referrer only. */
export const BROWSER_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: { request: { allow: ["User-Agent", "Referer"] }, response: false },
  httpBodies: [],
  urlQueryParams: true,
  graphQL: { document: false, variables: false },
  genAI: { inputs: false, outputs: false },
  mcp: { inputs: false, outputs: false },
  databaseQueryData: false,
  queues: false,
  stackFrameVariables: false,
  // The SDK's default; the browser adds source lines only with the ContextLines integration (off).
  frameContextLines: 5,
} as const satisfies Sentry.BrowserOptions["dataCollection"];

export function initClientSentry(env: PublicEnv): void {
  Sentry.init({
    ...sharedSentryOptions(env),
    tracesSampler: traceSamplerFromPage(env.SENTRY_TRACES_SAMPLE_RATE, pageBaggage()),
    dataCollection: BROWSER_DATA_COLLECTION,
    // v11's streamed spans skip beforeSendTransaction and our filters (docs/decisions/0057).
    traceLifecycle: "static",
    tunnel: env.SENTRY_TUNNEL_ROUTE,
    // The SDK's production build ignores it; Vite drops the name too, which the server never sets there.
    spotlight: import.meta.env.DEV ? env.SENTRY_SPOTLIGHT : undefined,
  });
  Sentry.addEventProcessor(nameErrorsByPage);
}

/** The page the router shows when the error is reported, from hydration on, tracing or not. */
function nameErrorsByPage(event: Sentry.Event): Sentry.Event {
  if (event.type === undefined) event.transaction = browserRoutePattern() ?? event.transaction;
  return event;
}

/** The browser follows the server's decision for the page's request. */
function serverSampled(): boolean {
  return (
    document.querySelector('meta[name="sentry-trace"]')?.getAttribute("content")?.endsWith("-1") === true
  );
}

export async function startDeferredSentry(env: PublicEnv): Promise<void> {
  const tracing = env.SENTRY_TRACES_SAMPLE_RATE > 0 || serverSampled();
  await Promise.all([
    tracing && import("./sentry-tracing.client").then((m) => m.startTracing()),
    env.SENTRY_FEEDBACK === "on" && import("./sentry-feedback.client").then((m) => m.showFeedbackWidget()),
  ]);
}

/** As `captureRemixErrorBoundaryError` did; a route error response is the server's to report. */
export function captureBoundaryError(error: unknown): void {
  if (!(error instanceof Error)) return;
  Sentry.captureException(error, {
    mechanism: { type: "instrument", handled: false, data: { function: "ReactError" } },
  });
}

export function captureRootError(error: unknown, info: ErrorInfo): void {
  Sentry.reactErrorHandler()(error, info);
}
