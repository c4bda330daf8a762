import { describe, expect, it } from "vitest";
import { budgetChecks, type VariantResult } from "./client-js";

describe("budgetChecks", () => {
  const variant = (id: VariantResult["id"], gzip: number, files: string[] = []): VariantResult => {
    const set = { files: files.map((path) => ({ path, raw: 0, gzip: 0, sentry: false })), raw: 0, gzip };
    return {
      id,
      name: id,
      declared: set,
      initial: set,
      afterHydration: { files: [], raw: 0, gzip: 0 },
      other: [],
    };
  };

  it("compares Sentry off and on with the baseline, and feedback with Sentry on", () => {
    const checks = budgetChecks([
      variant("baseline", 80_000),
      variant("off", 83_000),
      variant("on", 120_001),
      variant("feedback", 120_001),
    ]);
    expect(checks.map(({ what, measured, met }) => ({ what, measured, met }))).toEqual([
      { what: "Sentry off − baseline", measured: 3_000, met: true },
      { what: "Sentry on − baseline", measured: 40_001, met: false },
      { what: "feedback on − Sentry on", measured: 0, met: true },
    ]);
  });
});
