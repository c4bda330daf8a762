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

/** Where Sentry 11 reads the name source from; the SDK no longer exports the constant. */
const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";

/**
 * The SDK's own spans are off: both are started here, named by route pattern, with the calls Sentry 11
 * kept from `@sentry/remix` 10. Starting after hydration loses nothing: the page load is dated back,
 * web vitals are buffered.
 */
export function startTracing(): () => void {
  addIntegration(browserTracingIntegration({ instrumentPageLoad: false, instrumentNavigation: false }));
  const client = getClient();
  if (client) startBrowserTracingPageLoadSpan(client, routeSpan("pageload"));
  return startNavigation;
}

/** `/*` for the catch-all, whose transactions are then dropped. */
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
