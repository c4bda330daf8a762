import * as Sentry from "@sentry/react";
import type { ErrorInfo } from "react";
import type { PublicEnv } from "~/env.server";
import { browserRoutePattern } from "~/routing/route-pattern.client";
import { sharedSentryOptions } from "./sentry-options";

/**
 * The browser side of Sentry, in its own chunk: `client-monitoring.tsx`
 * imports it only when a DSN is configured, before hydration, so errors are
 * reported from the first moment. Tracing and the feedback widget follow
 * after hydration, each in a chunk of its own, so they add nothing to the
 * JavaScript a page needs before it is interactive. `@sentry/react` on
 * Sentry's 11 line, the server's (`@sentry/node` 11.x).
 */

/**
 * What the browser SDK may collect, set in full: v11's defaults collect
 * everything (the user's IP address inferred by Sentry, cookies, all
 * headers). The same as v10 with `sendDefaultPii: false`: the user agent and
 * referrer only, no IP address, no cookies, no bodies. `scrubEvent`
 * (sentry-options.ts) filters every event again.
 */
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
    dataCollection: BROWSER_DATA_COLLECTION,
    // Transactions, as on the server and as before v11 (docs/decisions/0057):
    // v11's default streams spans, which beforeSendTransaction, the filters of
    // sentry-options.ts and self-hosted Sentry before 26.4.2 never see.
    traceLifecycle: "static",
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

/**
 * Reports an exception an error boundary caught in the browser, once, as
 * `captureRemixErrorBoundaryError` did: Errors only (a route error response
 * is the server's answer, reported there if at all), unhandled.
 */
export function captureBoundaryError(error: unknown): void {
  if (!(error instanceof Error)) return;
  Sentry.captureException(error, {
    mechanism: { type: "instrument", handled: false, data: { function: "ReactError" } },
  });
}

/**
 * Reports an error React hands to the root (client-monitoring.tsx's
 * reportRootError), once, unhandled, with React's component stack: the SDK's
 * own handler for React 19's root options.
 */
export function captureRootError(error: unknown, info: ErrorInfo): void {
  Sentry.reactErrorHandler()(error, info);
}
