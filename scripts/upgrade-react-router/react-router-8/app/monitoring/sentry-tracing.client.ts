import {
  addIntegration,
  browserTracingIntegration,
  getActiveSpan,
  getClient,
  getRootSpan,
  SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN,
  startBrowserTracingNavigationSpan,
  startBrowserTracingPageLoadSpan,
} from "@sentry/react";
import { browserRoutePattern } from "~/routing/route-pattern.client";

/**
 * Where Sentry 11 reads a transaction's name source from (`transaction_info.source`);
 * the SDK no longer exports the constant (v10's was `sentry.source`).
 */
const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";

/**
 * Page-load and navigation tracing, in a chunk of its own, added after
 * hydration (sentry.client.ts). The SDK's own page-load and navigation spans
 * are off: both are started here, named by route pattern from the framework
 * router's matches, with the same calls as on Remix 2
 * (`@sentry/remix` 10), where Sentry 11 kept them. The page load still continues the server's trace (the SDK reads the
 * meta tags when it starts), is dated back to the navigation's start by its
 * timing entries, and web vitals come from buffered performance entries, so
 * starting it late loses nothing.
 */
export function startTracing(): () => void {
  addIntegration(browserTracingIntegration({ instrumentPageLoad: false, instrumentNavigation: false }));
  const client = getClient();
  if (client) startBrowserTracingPageLoadSpan(client, routeSpan("pageload"));
  return startNavigation;
}

/** A span named by route pattern (`/*` for the catch-all, whose transactions are then dropped). */
function routeSpan(kind: "pageload" | "navigation") {
  const pattern = browserRoutePattern();
  return {
    name: pattern ?? window.location.pathname,
    op: kind,
    attributes: {
      [SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN]: `auto.${kind}.remix`,
      [SEGMENT_NAME_SOURCE]: pattern ? "route" : "url",
      ...(pattern ? { "url.template": pattern } : {}),
    },
  } as const;
}

function startNavigation(): void {
  const client = getClient();
  if (!client) return;
  const active = getActiveSpan();
  if (active) getRootSpan(active).end();
  startBrowserTracingNavigationSpan(client, routeSpan("navigation"));
}
