/**
 * The client JavaScript budget (e2e/toolchain/client-js-budget.ts): the initial JS of `/`
 * that Chromium downloads before hydration, gzip, from the default production
 * build (`build/`, which `npm test` makes before the e2e step), with Sentry
 * off, on, and on with the feedback widget.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { startApp } from "../../test-support/app-server";
import { declaredInitialJs, downloadedInitialJs, type ScriptSet } from "../../test-support/client-js";
import { CLIENT_JS_BUDGET } from "./client-js-budget";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 3 }); // one per variant, on build/

const ROOT = path.resolve(import.meta.dirname, "../..");
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const files = (set: ScriptSet) =>
  set.files.map((file) => `${file.path} (${kb(file.gzip)}${file.sentry ? ", Sentry SDK" : ""})`).join(", ");

// This spec starts its own servers on build/: no need for the worker's app on build-e2e/.
test.use({ baseURL: undefined });

test("the initial JS of / stays within the product's budget", async ({ browser, recorder }) => {
  test.setTimeout(120_000);
  expect(existsSync(path.join(ROOT, "build/server/index.js")), "build/ (npm run build)").toBe(true);

  const variants = {
    off: {},
    on: { SENTRY_DSN: recorder.dsn() },
    feedback: { SENTRY_DSN: recorder.dsn(), SENTRY_FEEDBACK: "on" },
  };
  const measured: Record<string, Awaited<ReturnType<typeof downloadedInitialJs>>> = {};
  const report: string[] = [];
  for (const [id, env] of Object.entries(variants)) {
    const app = await startApp({ build: "build", env });
    try {
      const declared = await declaredInitialJs(app.url, path.join(ROOT, "build/client"));
      measured[id] = await downloadedInitialJs(browser, app.url);
      const { initial, afterHydration, other } = measured[id];
      report.push(
        `- Sentry ${id}: initial ${kb(initial.gzip)} gzip (declared in HTML ${kb(declared.gzip)}), ` +
          `after hydration ${kb(afterHydration.gzip)}; ${files(initial)}${other.length ? `; other: ${other.join(", ")}` : ""}`,
      );
    } finally {
      await app.stop();
    }
  }
  const body = `Initial JS of / (gzip), budget ${kb(CLIENT_JS_BUDGET.sentryOff)} off, ${kb(CLIENT_JS_BUDGET.sentryOn)} on:\n${report.join("\n")}`;
  await test.info().attach("initial-js.md", { body, contentType: "text/markdown" });
  console.log(body);
  const { off, on, feedback } = measured as Record<keyof typeof variants, (typeof measured)[string]>;

  // No Sentry code is downloaded when no DSN is set…
  expect(off.initial.files.filter((file) => file.sentry)).toEqual([]);
  expect(off.afterHydration.files.filter((file) => file.sentry)).toEqual([]);
  // …and with a DSN the SDK loads before hydration, so the figure below includes it.
  expect(on.initial.files.some((file) => file.sentry)).toBe(true);
  expect([...off.other, ...on.other, ...feedback.other], "scripts from elsewhere, or failed").toEqual([]);

  // Soft: one run reports every budget that is exceeded.
  expect
    .soft(off.initial.gzip, "Sentry off: initial JS, gzip bytes")
    .toBeLessThanOrEqual(CLIENT_JS_BUDGET.sentryOff);
  expect
    .soft(on.initial.gzip, "Sentry on: initial JS, gzip bytes")
    .toBeLessThanOrEqual(CLIENT_JS_BUDGET.sentryOn);
  expect.soft(feedback.initial.files, "feedback adds nothing to the initial JS").toEqual(on.initial.files);
});
