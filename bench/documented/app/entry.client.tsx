/**
 * Remix's default entry.client plus the browser init of Sentry's Remix guide
 * (errors and routing transactions, 100 % tracing). The benchmark measures the
 * server only; no browser loads this build, so the DSN is a placeholder that
 * points nowhere (the guide writes the project's own DSN here).
 */
import { RemixBrowser, useLocation, useMatches } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { startTransition, StrictMode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";

Sentry.init({
  dsn: "https://public@sentry.invalid/1",
  integrations: [Sentry.browserTracingIntegration({ useEffect, useLocation, useMatches })],
  tracesSampleRate: 1.0,
});

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
