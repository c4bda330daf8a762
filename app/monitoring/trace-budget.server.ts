/** At most `perSecond` new traces a second, each rate set by earlier arrivals only (docs/decisions/0080). */

const WINDOW_MS = 1_000;
const MIN_ELAPSED_MS = 100;
/** A page and its fetches say little about the second's rate: a burst spends at most this share unpaced. */
const UNPACED_SHARE = 1 / 4;
/** Paced to last past the second's end: a budget spent early refuses the rest (decision 0080's figures). */
const SLACK_MS = 50;

export interface TraceBudget {
  /** Counts the arrival. */
  rateForNewTrace(): number;
  traceStarted(): void;
}

export function traceBudget(
  configuredRate: number,
  perSecond: number,
  // Monotonic, windows on the epoch's seconds as the SDK's timestamps count them.
  now: () => number = () => performance.timeOrigin + performance.now(),
): TraceBudget {
  let windowStart = Number.NEGATIVE_INFINITY;
  let arrivals = 0;
  let previousArrivals = 0;
  let started = 0;

  const enterWindowOf = (time: number) => {
    const start = Math.floor(time / WINDOW_MS) * WINDOW_MS;
    if (start === windowStart) return;
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
      // A sliding second, or this second's pace if faster: a burst is seen within its first tenth.
      const sliding = (previousArrivals * (1 - elapsed / WINDOW_MS) + arrivals) / WINDOW_MS;
      const pace = arrivals > perSecond * UNPACED_SHARE ? arrivals / Math.max(elapsed, MIN_ELAPSED_MS) : 0;
      const perMs = Math.max(sliding, pace);
      const expected = 1 + perMs * (WINDOW_MS - elapsed + SLACK_MS);
      // Rounded before use, so the rate carried is the one decided by.
      return Math.min(configuredRate, Number((remainingBudget / expected).toPrecision(4)));
    },
    traceStarted() {
      enterWindowOf(now());
      started++;
    },
  };
}
