import type { ComponentType } from "react";
import type { PublicEnv } from "~/env.server";

/**
 * The only monitoring code every page downloads. The Sentry browser SDK is a
 * separate chunk, imported before hydration and only when a DSN is
 * configured: with Sentry off, the browser requests nothing of it.
 */
type SentryClient = typeof import("./sentry.client");

let sentry: SentryClient | undefined;

/** Starts Sentry in the browser when configured. Resolve before hydrating. */
export async function startClientMonitoring(env: PublicEnv | undefined): Promise<void> {
  if (!env?.SENTRY_DSN) return;
  sentry = await import("./sentry.client");
  sentry.initClientSentry(env);
}

/** Reports an exception an error boundary caught in the browser (no-op when Sentry is off). */
export function reportClientError(error: unknown): void {
  sentry?.captureBoundaryError(error);
}

/**
 * Wraps the root component with Sentry's route tracking when Sentry runs
 * (page loads and navigations named by route pattern); otherwise renders it as is.
 */
export function withMonitoring(App: ComponentType): ComponentType {
  let Root: ComponentType | undefined;
  function MonitoredRoot() {
    Root ??= sentry ? sentry.withRouteTracking(App) : App;
    return <Root />;
  }
  return MonitoredRoot;
}
