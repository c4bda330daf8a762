/** Median with min and max, the way every figure of the benchmark is reported. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** How many samples (rounds). */
  n: number;
}

export function spread(values: readonly number[]): Spread {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const sorted = [...finite].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

/** `a / b`, or NaN when either is missing or `b` is 0. */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : NaN;
}

/** A number with `digits` decimals, or `n/a`. */
export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** `1234 (1200–1250)`: the median, then min–max when there is more than one sample. */
export function formatSpread(value: Spread, digits: number): string {
  if (value.n === 0) return "n/a";
  const median = fixed(value.median, digits);
  return value.n > 1 ? `${median} (${fixed(value.min, digits)}–${fixed(value.max, digits)})` : median;
}
