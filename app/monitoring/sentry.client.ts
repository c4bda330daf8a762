import * as Sentry from "@sentry/remix";
import type { ErrorInfo } from "react";
import type { PublicEnv } from "~/env.server";
import { browserRoutePattern } from "~/routing/route-pattern.client";
import { sharedSentryOptions } from "./sentry-options";

/**
 * The browser side of Sentry, in its own chunk, loaded before hydration when a
 * DSN is configured so errors are reported from the first moment. Tracing and
 * the feedback widget follow after hydration, in chunks of their own.
 */

export function initClientSentry(env: PublicEnv): void {
  Sentry.init({
    ...sharedSentryOptions(env),
    // `dataCollection` deliberately unset: in this SDK, setting it switches
    // every key it does not name to "collect everything".
    sendDefaultPii: false,
    tunnel: env.SENTRY_TUNNEL_ROUTE,
  });
  Sentry.addEventProcessor(nameErrorsByPage);
}

/**
 * An error event's `transaction` is the route pattern of the page the
 * framework's router shows when the error is reported: from the first moment
 * (a `clientLoader` failing or a first render crashing while the page
 * hydrates), tracing or not, and after each navigation, its error pages too.
 */
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

/** Resolves to what starts a navigation's span, when tracing. */
export async function startDeferredSentry(env: PublicEnv): Promise<(() => void) | undefined> {
  const tracing = env.SENTRY_TRACES_SAMPLE_RATE > 0 || serverSampled();
  const [onNavigation] = await Promise.all([
    tracing ? import("./sentry-tracing.client").then((m) => m.startTracing()) : undefined,
    env.SENTRY_FEEDBACK === "on" && import("./sentry-feedback.client").then((m) => m.showFeedbackWidget()),
  ]);
  return onNavigation;
}

/** A route error response is the server's to report. */
export function captureBoundaryError(error: unknown): void {
  if (!(error instanceof Error)) return;
  Sentry.captureException(error, {
    mechanism: { type: "instrument", handled: false, data: { function: "ReactError" } },
  });
}

/** The SDK's own handler for React's root options: once, unhandled, with the component stack. */
export function captureRootError(error: unknown, info: ErrorInfo): void {
  Sentry.reactErrorHandler()(error, info);
}
