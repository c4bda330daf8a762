import type { ErrorInfo } from "react";
import type { PublicEnv } from "~/env.server";

/** The only monitoring code every page downloads: the SDK is a chunk loaded only when a DSN is configured. */
type SentryClient = typeof import("./sentry.client");

let sentry: SentryClient | undefined;
let deferredStarted = false;

/** Resolve before hydrating, so hydration's errors are reported. Spotlight: `npm run dev` only, gone from the build. */
export async function startClientMonitoring(env: PublicEnv | undefined): Promise<void> {
  if (!env?.SENTRY_DSN && !(import.meta.env.DEV && env?.SENTRY_SPOTLIGHT)) return;
  sentry = await import("./sentry.client");
  sentry.initClientSentry(env);
}

export function startDeferredClientMonitoring(env: PublicEnv | undefined): void {
  // StrictMode runs effects twice in development.
  if (!sentry || !env || deferredStarted) return;
  deferredStarted = true;
  const client = sentry;
  // So these chunks never compete with the page's own first work.
  whenIdle(() =>
    client
      .startDeferredSentry(env)
      .catch((error: unknown) => console.error("Monitoring did not fully start:", error)),
  );
}

function whenIdle(task: () => void): void {
  if ("requestIdleCallback" in window) window.requestIdleCallback(task, { timeout: 2_000 });
  else setTimeout(task, 200);
}

export function reportClientError(error: unknown): void {
  sentry?.captureBoundaryError(error);
}

/** Without Sentry, as React's default handlers do. */
export function reportRootError(error: unknown, info: ErrorInfo): void {
  if (sentry) sentry.captureRootError(error, info);
  else if (typeof window.reportError === "function") window.reportError(error);
  else console.error(error);
}
