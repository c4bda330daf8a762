/**
 * The client JavaScript budget (bench/README.md): the initial JS of `/` that
 * Chromium downloads before hydration, gzip, against the bare Remix baseline
 * measured in the same run. Needs `build/` and `bench/baseline/build/`
 * (`npm test` makes both before the e2e step).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { BUDGET, clientJsReport, measureVariant, VARIANTS, type VariantResult } from "../bench/client-js";
import { BUILDS } from "../bench/support/builds";
import { ROOT } from "../bench/support/servers";
import { expect, test } from "./support/fixtures";

test("the initial JS of / stays within budget of the bare Remix baseline", async ({ browser, recorder }) => {
  test.setTimeout(120_000);
  for (const build of [BUILDS.baseline, BUILDS.production]) {
    expect(existsSync(path.join(ROOT, build.marker)), `${build.marker} (npm run ${build.script})`).toBe(true);
  }

  const results = new Map<string, VariantResult>();
  for (const variant of VARIANTS) results.set(variant.id, await measureVariant(browser, variant, recorder));
  const report = clientJsReport([...results.values()]);
  await test.info().attach("initial-js.md", { body: report, contentType: "text/markdown" });
  console.log(report);
  const [baseline, off, on, feedback] = ["baseline", "off", "on", "feedback"].map((id) => results.get(id)!);

  // No Sentry code is downloaded when no DSN is set…
  expect(off!.initial.files.filter((file) => file.sentry)).toEqual([]);
  expect(off!.afterHydration.files.filter((file) => file.sentry)).toEqual([]);
  // …and with a DSN the SDK loads before hydration, so the figures below include it.
  expect(on!.initial.files.some((file) => file.sentry)).toBe(true);

  // Soft: one run reports every budget that is exceeded.
  expect
    .soft(off!.initial.gzip - baseline!.initial.gzip, "Sentry off: initial JS gzip bytes over the baseline")
    .toBeLessThanOrEqual(BUDGET.sentryOff);
  expect
    .soft(on!.initial.gzip - baseline!.initial.gzip, "Sentry on: initial JS gzip bytes over the baseline")
    .toBeLessThanOrEqual(BUDGET.sentryOn);
  expect.soft(feedback!.initial.files, "feedback adds nothing to the initial JS").toEqual(on!.initial.files);
});
