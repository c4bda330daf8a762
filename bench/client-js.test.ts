import { describe, expect, it } from "vitest";
import { BUDGET, budgetChecks, type VariantResult } from "./client-js";

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
    // At the limit is met, one byte over is not (the limits depend on the framework: BUDGET).
    const on = 80_000 + BUDGET.sentryOn + 1;
    const checks = budgetChecks([
      variant("baseline", 80_000),
      variant("off", 80_000 + BUDGET.sentryOff),
      variant("on", on),
      variant("feedback", on),
    ]);
    expect(checks.map(({ what, measured, met }) => ({ what, measured, met }))).toEqual([
      { what: "Sentry off − baseline", measured: BUDGET.sentryOff, met: true },
      { what: "Sentry on − baseline", measured: BUDGET.sentryOn + 1, met: false },
      { what: "feedback on − Sentry on", measured: 0, met: true },
    ]);
  });
});
