import { useLocation, useMatches } from "@remix-run/react";
import {
  addIntegration,
  browserTracingIntegration,
  getActiveSpan,
  getClient,
  getRootSpan,
  SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN,
  SEMANTIC_ATTRIBUTE_SENTRY_SOURCE,
  startBrowserTracingNavigationSpan,
} from "@sentry/remix";
import { useEffect } from "react";
import patterns from "virtual:route-patterns";
import { navigations } from "./client-monitoring";
import { matchRoutePattern } from "~/routing/route-pattern-matcher";

/**
 * Page-load and navigation tracing, in a chunk of its own, added after
 * hydration (sentry.client.ts). The page-load transaction still starts at the
 * navigation's start (the SDK dates it from `performance.timeOrigin`), is
 * named from the route manifest set before `Sentry.init`, continues the
 * server's trace from the meta tags, and web vitals come from buffered
 * performance entries, so adding it late loses nothing.
 */
export function startTracing(): void {
  addIntegration(
    // Navigations are started below, from the root's location changes.
    browserTracingIntegration({ useEffect, useLocation, useMatches, instrumentNavigation: false }),
  );
  navigations.listener = startNavigation;
}

/** A navigation transaction named by route pattern (`/*` for the catch-all, which is then dropped). */
function startNavigation(pathname: string): void {
  const client = getClient();
  if (!client) return;
  const active = getActiveSpan();
  if (active) getRootSpan(active).end();
  const pattern = matchRoutePattern(pathname, patterns);
  startBrowserTracingNavigationSpan(client, {
    name: pattern ?? pathname,
    op: "navigation",
    attributes: {
      [SEMANTIC_ATTRIBUTE_SENTRY_ORIGIN]: "auto.navigation.remix",
      [SEMANTIC_ATTRIBUTE_SENTRY_SOURCE]: pattern ? "route" : "url",
    },
  });
}
