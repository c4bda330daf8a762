import {
  addIntegration,
  browserTracingIntegration,
  getActiveSpan,
  getClient,
  getCurrentScope,
  getRootSpan,
  SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN,
  startBrowserTracingNavigationSpan,
  startBrowserTracingPageLoadSpan,
  type Span,
} from "@sentry/react";
import { onNavigations, type NavigationLocation } from "~/routing/navigations.client";
import { browserRoutePattern } from "~/routing/route-pattern.client";
import { NOT_FOUND_PATTERN } from "~/routing/route-patterns";

/** Where Sentry 11 reads the name source from; the SDK no longer exports the constant. */
const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";

let navigation: { span: Span | undefined; pathname: string } | undefined;

/** The SDK's own spans off, ours named by route pattern; after hydration, as the page load is dated back. */
export function startTracing(): void {
  addIntegration(browserTracingIntegration({ instrumentPageLoad: false, instrumentNavigation: false }));
  const client = getClient();
  if (!client) return;
  startBrowserTracingPageLoadSpan(client, routeSpan("pageload", browserRoutePattern()));
  onNavigations({
    started: (location) => startNavigation(client, location),
    landed: () => {
      nameNavigation(browserRoutePattern());
      navigation = undefined;
    },
  });
}

/** `/*` for the catch-all, whose transactions are then dropped. */
function routeSpan(kind: "pageload" | "navigation", pattern: string | undefined, pathname?: string) {
  return {
    name: pattern ?? pathname ?? window.location.pathname,
    op: kind,
    attributes: {
      [SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN]: `auto.${kind}.remix`,
      [SEGMENT_NAME_SOURCE]: pattern ? "route" : "url",
      ...(pattern ? { "url.template": pattern } : {}),
    },
  } as const;
}

/** A route not discovered yet (lazy route discovery) matches the catch-all until the router fetched it. */
function knownPattern(pathname: string): string | undefined {
  const pattern = browserRoutePattern(pathname);
  return pattern === NOT_FOUND_PATTERN ? undefined : pattern;
}

/** Before the router requests the page's data, so that request and the server's transaction of it join this trace. */
function startNavigation(
  client: NonNullable<ReturnType<typeof getClient>>,
  { pathname, search, hash }: NavigationLocation,
): void {
  // One replaced in flight: its route is known now that its request went out.
  if (navigation) nameNavigation(knownPattern(navigation.pathname));
  const active = getActiveSpan();
  if (active) getRootSpan(active).end();
  const url = new URL(pathname + search + hash, window.location.href).href;
  const span = routeSpan("navigation", knownPattern(pathname), pathname);
  navigation = { span: startBrowserTracingNavigationSpan(client, span, { url }), pathname };
}

/** By the page shown when it lands: a route discovered on the way, or a redirect's target. */
function nameNavigation(pattern: string | undefined): void {
  const span = navigation?.span;
  if (!pattern || !span?.isRecording()) return;
  const { name, attributes } = routeSpan("navigation", pattern);
  // `updateName` marks the name custom; the attributes then say where it came from.
  span.updateName(name);
  span.setAttributes(attributes);
  getCurrentScope().setTransactionName(name);
}
