/** A token bucket of `perSecond` traces, new and continued alike, paced from earlier arrivals only (docs/decisions/0090). */

/** How fast the demand's estimate forgets: a page and its fetches fade within a second or two. */
const DEMAND_MEMORY_S = 1;
/** Pacing aims to keep half the bucket, so a swing in load rarely finds it empty (an empty bucket refuses uncounted). */
const RESERVE_SHARE = 1 / 2;

export interface TraceBudget {
  /**
   * The share of its base rate the next arrival is traced at: 1 while demand stays under the bound,
   * less above it, 0 with no token left. Depends only on earlier arrivals, so a trace decided by
   * `sample_rand < base × share` is kept with exactly the probability it records.
   */
  share(): number;
  /** A head-sampled arrival of a kind that is traced: the demand the share is paced against. */
  demanded(): void;
  /** A trace started. */
  spend(): void;
}

export function traceBudget(
  perSecond: number,
  // Monotonic milliseconds.
  now: () => number = () => performance.now(),
): TraceBudget {
  const capacity = Math.max(1, perSecond);
  const reserve = capacity * RESERVE_SHARE;
  let tokens = capacity;
  let demand = 0;
  let at = now();

  const advance = () => {
    const time = now();
    const elapsedS = Math.max(0, time - at) / 1000;
    at = time;
    tokens = Math.min(capacity, tokens + perSecond * elapsedS);
    demand *= Math.exp(-elapsedS / DEMAND_MEMORY_S);
  };

  return {
    share() {
      advance();
      if (tokens < 1) return 0;
      // A second's refill, plus what the bucket holds above its reserve (or less, below it).
      const affordable = perSecond + (tokens - reserve);
      const expected = demand / DEMAND_MEMORY_S;
      // Rounded before use, so the rate carried is the one decided by.
      return expected <= affordable ? 1 : Number((affordable / expected).toPrecision(4));
    },
    demanded() {
      advance();
      demand += 1;
    },
    spend() {
      advance();
      tokens -= 1;
    },
  };
}
