/** New traces (navigations) at the page's rate, then at each later response's: bounded too (docs/decisions/0090). */
import { TRACE_RATE_TIMING } from "./sentry-options";

export function traceSamplerFromPage(
  configuredRate: number,
  pageBaggage: string | undefined,
  observe: (onRate: (rate: number) => void) => void = observeServerRates,
) {
  const given = Number(/(?:^|,)\s*sentry-sample_rate=([^,]*)/.exec(pageBaggage ?? "")?.[1]);
  let rate = Number.isFinite(given) ? Math.min(configuredRate, given) : configuredRate;
  observe((current) => (rate = Math.min(configuredRate, current)));
  return ({ inheritOrSampleWith }: { inheritOrSampleWith: (fallbackRate: number) => number }) =>
    inheritOrSampleWith(rate);
}

/** Resource Timing hands each same-origin response's `Server-Timing` to the page: no fetch is wrapped. */
export function observeServerRates(onRate: (rate: number) => void): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes("resource")) return;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      const timing = entry.serverTiming?.find(({ name }) => name === TRACE_RATE_TIMING);
      const rate = Number(timing?.description ?? Number.NaN);
      if (rate >= 0 && rate <= 1) onRate(rate);
    }
  }).observe({ type: "resource" });
}

export function pageBaggage(): string | undefined {
  return document.querySelector('meta[name="baggage"]')?.getAttribute("content") ?? undefined;
}
