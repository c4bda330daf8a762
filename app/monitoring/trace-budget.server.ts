/** A token bucket of `perSecond` traces, new and continued alike, paced from earlier arrivals only (docs/decisions/0090). */

const DEMAND_MEMORY_S = 1;
/** Half kept in reserve: an empty bucket refuses uncounted, so a swing in load should rarely find it so. */
const RESERVE_SHARE = 1 / 2;

export interface TraceBudget {
  /** From earlier arrivals only, so each trace is kept with exactly the probability it records. */
  share(): number;
  demanded(): void;
  spend(): void;
}

export function traceBudget(perSecond: number, now: () => number = () => performance.now()): TraceBudget {
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
