/**
 * The browser starts a new trace (a navigation) at the rate the server gave its page: the
 * configured rate, or lower while the server's trace budget runs short, so browser-started traces
 * are bounded too (docs/decisions/0090). A page load continues the server's decision.
 */
export function traceSamplerFromPage(configuredRate: number, pageBaggage: string | undefined) {
  const given = Number(/(?:^|,)\s*sentry-sample_rate=([^,]*)/.exec(pageBaggage ?? "")?.[1]);
  const rate = Number.isFinite(given) ? Math.min(configuredRate, given) : configuredRate;
  return ({ inheritOrSampleWith }: { inheritOrSampleWith: (fallbackRate: number) => number }) =>
    inheritOrSampleWith(rate);
}

/** The page's `baggage` meta tag, as the server wrote it. */
export function pageBaggage(): string | undefined {
  return document.querySelector('meta[name="baggage"]')?.getAttribute("content") ?? undefined;
}
