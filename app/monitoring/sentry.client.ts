import * as Sentry from "@sentry/remix";
import patterns from "virtual:route-patterns";
import type { PublicEnv } from "~/env.server";
import { toSentryRouteManifest } from "~/routing/route-patterns";
import { sharedSentryOptions } from "./sentry-options";

/**
 * The browser side of Sentry, in its own chunk: `client-monitoring.tsx`
 * imports it only when a DSN is configured, before hydration, so errors are
 * reported from the first moment. Tracing and the feedback widget follow
 * after hydration, each in a chunk of its own, so they add nothing to the
 * JavaScript a page needs before it is interactive.
 */

declare global {
  interface Window {
    /** Read by @sentry/remix to name page loads and navigations by route pattern. */
    _sentryRemixRouteManifest?: string;
  }
}

export function initClientSentry(env: PublicEnv): void {
  // The SDK's own Vite plugin only scans app/routes and names static routes by
  // URL; this manifest is built from the real route config (route-patterns.ts).
  window._sentryRemixRouteManifest = JSON.stringify(toSentryRouteManifest(patterns));
  Sentry.init({
    ...sharedSentryOptions(env),
    // Privacy by default. `dataCollection` is deliberately unset: in this SDK
    // (10.x), setting it at all switches every key it does not name to
    // "collect everything".
    sendDefaultPii: false,
    tunnel: env.SENTRY_TUNNEL_ROUTE,
  });
}

/** True when the server sampled this page's request: the browser then follows its decision. */
function serverSampled(): boolean {
  return (
    document.querySelector('meta[name="sentry-trace"]')?.getAttribute("content")?.endsWith("-1") === true
  );
}

/** Once the page has hydrated: tracing (when anything can be sampled) and the feedback widget (when on). */
export async function startDeferredSentry(env: PublicEnv): Promise<void> {
  const tracing = env.SENTRY_TRACES_SAMPLE_RATE > 0 || serverSampled();
  await Promise.all([
    tracing && import("./sentry-tracing.client").then((m) => m.startTracing()),
    env.SENTRY_FEEDBACK === "on" && import("./sentry-feedback.client").then((m) => m.showFeedbackWidget()),
  ]);
}

/** Reports an exception an error boundary caught in the browser, once. */
export function captureBoundaryError(error: unknown): void {
  Sentry.captureRemixErrorBoundaryError(error);
}
