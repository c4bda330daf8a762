/** The encoder works per level and per value (GHSA-rxv8-25v2-qmq8); data an app means to send stays far below. */
export const MAX_DATA_DEPTH = 64;
export const MAX_DATA_VALUES = 50_000;

export class UnboundedDataError extends Error {
  override name = "UnboundedDataError";
}

export function checkDataBounds(
  value: unknown,
  limits = { depth: MAX_DATA_DEPTH, values: MAX_DATA_VALUES },
): void {
  if (typeof value !== "object" || value === null || value instanceof Response) return;
  const seen = new Set<object>();
  const stack: [unknown, number][] = [[value, 0]];
  let count = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (++count > limits.values) throw new UnboundedDataError(`data holds more than ${limits.values} values`);
    if (typeof current !== "object" || current === null || current instanceof Promise) continue;
    if (seen.has(current)) continue;
    seen.add(current);
    if (depth >= limits.depth)
      throw new UnboundedDataError(`data is nested deeper than ${limits.depth} levels`);
    const children =
      current instanceof Map
        ? [...current.keys(), ...current.values()]
        : current instanceof Set || Array.isArray(current)
          ? [...(current as Iterable<unknown>)]
          : Object.values(current);
    for (const child of children) stack.push([child, depth + 1]);
  }
}
