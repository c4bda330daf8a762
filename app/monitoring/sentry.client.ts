import * as Sentry from "@sentry/remix";
import type { ErrorInfo } from "react";
import type { PublicEnv } from "~/env.server";
import { browserRoutePattern } from "~/routing/route-pattern.client";
import { sharedSentryOptions } from "./sentry-options";
import { pageBaggage, traceSamplerFromPage } from "./trace-rate.client";

/** Loaded before hydration, so errors are reported from the first moment; tracing and feedback follow after it. */

export function initClientSentry(env: PublicEnv): void {
  Sentry.init({
    ...sharedSentryOptions(env),
    tracesSampler: traceSamplerFromPage(env.SENTRY_TRACES_SAMPLE_RATE, pageBaggage()),
    // `dataCollection` deliberately unset: in this SDK, setting it collects every key it does not name.
    sendDefaultPii: false,
    tunnel: env.SENTRY_TUNNEL_ROUTE,
    // Vite drops it from the production build, where the server never names a sidecar anyway.
    integrations:
      import.meta.env.DEV && env.SENTRY_SPOTLIGHT
        ? [Sentry.spotlightBrowserIntegration({ sidecarUrl: env.SENTRY_SPOTLIGHT })]
        : [],
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

/** A route error response is the server's to report. */
export function captureBoundaryError(error: unknown): void {
  if (!(error instanceof Error)) return;
  Sentry.captureException(error, {
    mechanism: { type: "instrument", handled: false, data: { function: "ReactError" } },
  });
}

export function captureRootError(error: unknown, info: ErrorInfo): void {
  Sentry.reactErrorHandler()(error, info);
}
