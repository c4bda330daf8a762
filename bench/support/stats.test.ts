import { describe, expect, it } from "vitest";
import { formatSpread, ratio, spread } from "./stats";

describe("spread", () => {
  it("takes the middle value of an odd count and the mean of the two middles of an even one", () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(spread([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, n: 4 });
  });

  it("ignores missing values and reports none as NaN", () => {
    expect(spread([NaN, 5])).toEqual({ median: 5, min: 5, max: 5, n: 1 });
    expect(spread([]).n).toBe(0);
    expect(spread([]).median).toBeNaN();
  });
});

describe("ratio and formatting", () => {
  it("divides, or answers NaN when it cannot", () => {
    expect(ratio(1, 4)).toBe(0.25);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(NaN, 1)).toBeNaN();
  });

  it("prints the median, then min–max when there are several samples", () => {
    expect(formatSpread(spread([10, 12, 11]), 0)).toBe("11 (10–12)");
    expect(formatSpread(spread([1.234]), 2)).toBe("1.23");
    expect(formatSpread(spread([]), 2)).toBe("n/a");
  });
});
