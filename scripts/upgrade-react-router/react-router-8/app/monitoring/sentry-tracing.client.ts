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
  startInactiveSpan,
  type Span,
} from "@sentry/react";
import { onRouterOperations, type Ended } from "~/routing/router-operations.client";
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
  onRouterOperations({
    navigation: (target) => startNavigation(client, target),
    fetch: startFetch,
  });
}

/** `/*` for the catch-all, whose transactions are then dropped. */
function routeSpan(kind: "pageload" | "navigation", pattern: string | undefined, pathname?: string) {
  return {
    name: pattern ?? pathname ?? window.location.pathname,
    op: kind,
    attributes: {
      [SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN]: `auto.${kind}.react_router`,
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
function startNavigation(client: NonNullable<ReturnType<typeof getClient>>, target: URL): Ended {
  // One replaced in flight: its route is known now that its request went out.
  if (navigation) nameNavigation(knownPattern(navigation.pathname));
  const active = getActiveSpan();
  if (active) getRootSpan(active).end();
  const span = routeSpan("navigation", knownPattern(target.pathname), target.pathname);
  const started = {
    span: startBrowserTracingNavigationSpan(client, span, { url: target.href }),
    pathname: target.pathname,
  };
  navigation = started;
  // By the page shown once it is over (after a redirect, another one's).
  return () => {
    if (navigation !== started) return;
    nameNavigation(browserRoutePattern());
    navigation = undefined;
  };
}

function nameNavigation(pattern: string | undefined): void {
  const span = navigation?.span;
  if (!pattern || !span?.isRecording()) return;
  const { name, attributes } = routeSpan("navigation", pattern);
  // `updateName` marks the name custom; the attributes then say where it came from.
  span.updateName(name);
  span.setAttributes(attributes);
  getCurrentScope().setTransactionName(name);
}

function startFetch({ pathname }: URL): Ended {
  const pattern = knownPattern(pathname);
  const span = startInactiveSpan({
    name: pattern ?? pathname,
    op: "function.react_router.fetcher",
    attributes: {
      [SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN]: "auto.function.react_router",
      [SEGMENT_NAME_SOURCE]: pattern ? "route" : "url",
    },
  });
  return (failed) => {
    if (failed) span.setStatus({ code: 2, message: "internal_error" });
    span.end();
  };
}
