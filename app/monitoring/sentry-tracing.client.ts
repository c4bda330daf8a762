import {
  addIntegration,
  browserTracingIntegration,
  getActiveSpan,
  getClient,
  getRootSpan,
  SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN,
  SEMANTIC_ATTRIBUTE_SENTRY_SOURCE,
  startBrowserTracingNavigationSpan,
  startBrowserTracingPageLoadSpan,
} from "@sentry/remix";
import { browserRoutePattern } from "~/routing/route-pattern.client";

/** Starting after hydration loses nothing: the page load is dated back, web vitals are buffered. */
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
      [SEMANTIC_ATTRIBUTE_SENTRY_SOURCE]: pattern ? "route" : "url",
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
