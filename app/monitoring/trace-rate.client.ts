/** New traces (navigations) at the rate the server gave the page, so they are bounded too (docs/decisions/0090). */
export function traceSamplerFromPage(configuredRate: number, pageBaggage: string | undefined) {
  const given = Number(/(?:^|,)\s*sentry-sample_rate=([^,]*)/.exec(pageBaggage ?? "")?.[1]);
  const rate = Number.isFinite(given) ? Math.min(configuredRate, given) : configuredRate;
  return ({ inheritOrSampleWith }: { inheritOrSampleWith: (fallbackRate: number) => number }) =>
    inheritOrSampleWith(rate);
}

export function pageBaggage(): string | undefined {
  return document.querySelector('meta[name="baggage"]')?.getAttribute("content") ?? undefined;
}
