import { useLocation, useMatches } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { useEffect, type ComponentType } from "react";
import patterns from "virtual:route-patterns";
import type { PublicEnv } from "~/env.server";
import { toSentryRouteManifest } from "./route-patterns";
import { sharedSentryOptions } from "./sentry-options";

/**
 * The browser side of Sentry, in its own chunk: `client-monitoring.tsx`
 * imports it only when a DSN is configured.
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
    tunnel: env.SENTRY_TUNNEL_ROUTE,
    integrations: [Sentry.browserTracingIntegration({ useEffect, useLocation, useMatches })],
  });
}

/** Sentry's root wrapper: names the page load and starts a navigation transaction per route change. */
export function withRouteTracking(App: ComponentType): ComponentType {
  return Sentry.withSentry(App);
}

/** Reports an exception an error boundary caught in the browser, once. */
export function captureBoundaryError(error: unknown): void {
  Sentry.captureRemixErrorBoundaryError(error);
}
