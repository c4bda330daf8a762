/**
 * At most `perSecond` new traces a second, each decided with the probability it carries
 * (docs/decisions/0080): the rate a new trace is sampled at is the share of the second's remaining
 * budget in the arrivals still expected this second, never above the configured rate. A rate that
 * depends only on what came before a request keeps Sentry's Σ 1/rate an unbiased count of requests;
 * only once the second's budget is spent does a request get rate 0 and go uncounted.
 */

const WINDOW_MS = 1_000;
/** Before a tenth of a second has passed, the arrivals so far say too little about the rate. */
const MIN_ELAPSED_MS = 100;
/**
 * A few requests together (a page and its fetches) say little about the second's rate: this
 * second's own pace counts only once its arrivals exceed this share of the budget, so a quiet
 * app keeps its configured rate and a burst spends at most this share before it is paced.
 */
const UNPACED_SHARE = 1 / 4;
/**
 * Paced to last past the second's end: a budget spent early refuses the rest of the second (rate 0,
 * uncounted). At 20/s, simulated: about 3% of the budget unspent, 3% of requests refused.
 */
const SLACK_MS = 25;

export interface TraceBudget {
  /** The probability a new trace arriving now is sampled at; counts the arrival. */
  rateForNewTrace(): number;
  /** A new trace was started (sampled and kept). */
  traceStarted(): void;
}

export function traceBudget(
  configuredRate: number,
  perSecond: number,
  // Monotonic, with windows on the epoch's seconds: the ones the SDK's timestamps are counted in.
  now: () => number = () => performance.timeOrigin + performance.now(),
): TraceBudget {
  let windowStart = Number.NEGATIVE_INFINITY;
  let arrivals = 0;
  let previousArrivals = 0;
  let started = 0;

  const enterWindowOf = (time: number) => {
    const start = Math.floor(time / WINDOW_MS) * WINDOW_MS;
    if (start === windowStart) return;
    // A gap of more than a window means the window before this one was empty.
    previousArrivals = start - windowStart === WINDOW_MS ? arrivals : 0;
    windowStart = start;
    arrivals = 0;
    started = 0;
  };

  return {
    rateForNewTrace() {
      const time = now();
      enterWindowOf(time);
      arrivals++;
      const remainingBudget = perSecond - started;
      if (remainingBudget <= 0 || configuredRate === 0) return 0;
      const elapsed = time - windowStart;
      // Arrivals in the last second (last second's share not yet past, and this one's), or this
      // second's pace if faster: a burst is seen within its first tenth.
      const sliding = (previousArrivals * (1 - elapsed / WINDOW_MS) + arrivals) / WINDOW_MS;
      const pace = arrivals > perSecond * UNPACED_SHARE ? arrivals / Math.max(elapsed, MIN_ELAPSED_MS) : 0;
      const perMs = Math.max(sliding, pace);
      // This request and those still expected before the second ends (and a little after).
      const expected = 1 + perMs * (WINDOW_MS - elapsed + SLACK_MS);
      // Rounded before use, so the number carried is the one decided by; short in the baggage.
      return Math.min(configuredRate, Number((remainingBudget / expected).toPrecision(4)));
    },
    traceStarted() {
      enterWindowOf(now());
      started++;
    },
  };
}
