/**
 * Memory stays bounded while every request reports an error to a black-holed ingest, against the
 * same app with Sentry off. Not a latency or CPU comparison (e2e/sentry/faults.spec.ts): what other
 * tests beside it load the machine with cannot move it. It runs in the cost specs' lane all the
 * same, where its time limit holds (e2e/playwright.config.ts). Bounded in count and time, 127.0.0.1 only.
 */
import { startApp } from "../../test-support/app-server";
import { blackHoleIngest } from "../../test-support/faulty-ingest";
import { load, rssMiB } from "../../test-support/load";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 2 }); // Sentry on and Sentry off

// Over 3x the slowest seen on a loaded 2-core machine (bench/README.md, "How long the test suite takes").
test.setTimeout(240_000);

const ERROR_PAGE = "/fixtures/loader-error";

/**
 * What reporting may hold is bounded by the SDK's send buffer (64 pending
 * sends): with a black-holed ingest it fills within the first seconds, and
 * every later event is dropped. 4 000 errors after a warm-up are far past
 * that, and few enough to run in a minute on a slow day.
 */
const WARM_ERRORS = 2_000;
const MEASURED_ERRORS = 4_000;

test(`memory stays bounded over ${MEASURED_ERRORS} requests that each report an error (ingest black-holed)`, async () => {
  const ingest = await blackHoleIngest();
  const [reporting, silent] = await Promise.all([
    startApp({ env: { SENTRY_DSN: ingest.dsn, SENTRY_TRACES_SAMPLE_RATE: "1" } }),
    startApp(),
  ]);
  try {
    const rss: Record<string, { warm: number; end: number }> = {};
    for (const [name, app] of [
      ["Sentry on, ingest black-holed", reporting],
      ["Sentry off", silent],
    ] as const) {
      // V8 grows its heap over the first thousands of requests (Sentry off too), then levels off.
      await load(app.url + ERROR_PAGE, { total: WARM_ERRORS, concurrency: 20 });
      const warm = rssMiB(app.process.pid!);
      const result = await load(app.url + ERROR_PAGE, { total: MEASURED_ERRORS, concurrency: 20 });
      expect(result.statuses.get(500)).toBe(MEASURED_ERRORS);
      rss[name] = { warm, end: rssMiB(app.process.pid!) };
    }
    console.log(
      `RSS (MiB) after ${WARM_ERRORS} errors and after ${MEASURED_ERRORS} more: ${JSON.stringify(rss)}; ` +
        `at most ${ingest.maxOpenConnections()} sends were pending at once`,
    );
    // The bound itself: each pending send holds one connection to the ingest.
    expect(ingest.maxOpenConnections()).toBeGreaterThan(0);
    expect(ingest.maxOpenConnections()).toBeLessThanOrEqual(64);
    const on = rss["Sentry on, ingest black-holed"]!;
    const off = rss["Sentry off"]!;
    // V8's heap keeps growing under this load with Sentry off as well: what must
    // stay bounded is what reporting adds on top. RSS is not live memory: V8 grows
    // the larger heap (Sentry on) in larger steps, so one commit's runs differ widely
    // (bench/README.md); every event and transaction of the 4 000 requests kept would
    // be far more than 100 MiB.
    expect(on.end - on.warm - (off.end - off.warm)).toBeLessThan(100);
    expect(on.end).toBeLessThanOrEqual(off.end * 1.5);
    const errorLines = reporting.logLines().filter((line) => line.level === "error" && line.digest);
    expect(errorLines).toHaveLength(WARM_ERRORS + MEASURED_ERRORS);
  } finally {
    await Promise.all([reporting.stop(), silent.stop()]);
    await ingest.close();
  }
});
