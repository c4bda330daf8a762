/**
 * Sentry's ingest failing must never hurt the app: with the ingest refusing
 * connections, black-holed, slow, or answering 429/500, pages keep their
 * latency, memory stays bounded while every request reports an error, and
 * every error keeps its digest log line. Bounded in count and time, 127.0.0.1
 * only.
 *
 * Latency is compared with the same app reporting to a healthy ingest, in
 * interleaved batches of the same run: that isolates what the fault costs.
 * What Sentry itself costs against Sentry off is the benchmark's business
 * (bench/README.md); the ratio to Sentry off is printed here for the record.
 */
import { startApp, type AppServer } from "./support/app-server";
import { blackHoleIngest, refusingIngest, slowIngest, type FaultyIngest } from "./support/faulty-ingest";
import { expect, test } from "./support/fixtures";
import { load, percentile, rssMiB } from "./support/load";
import { startRecorder, type Recorder } from "./support/sentry-recorder";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const PAGE = "/fixtures/items/1";
const ERROR_PAGE = "/fixtures/loader-error";

/** p99 of a page, measured in alternating batches against two servers so both see the same machine noise. */
async function pairedLatency(a: AppServer, b: AppServer, rounds = 8, perRound = 150) {
  const latencies: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    // Alternate who goes first: the first batch after a pause is the slower one.
    const order = round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const index of order) {
      const server = index === 0 ? a : b;
      latencies[index].push(...(await load(server.url + PAGE, { total: perRound })).latencies);
    }
  }
  return latencies.map((values) => ({ p50: percentile(values, 50), p99: percentile(values, 99) }));
}

let sentryOff: AppServer;

test.beforeAll(async () => {
  sentryOff = await startApp();
  await load(sentryOff.url + PAGE, { total: 1_000 }); // warm-up
});

test.afterAll(async () => {
  await sentryOff?.stop();
});

/**
 * Starts the app reporting to `dsn` beside a twin reporting to a healthy
 * recorder (production settings: the default sample rate), and warms both
 * alike: 1 000 page requests, then 300 requests that each report an error.
 * Fresh servers run slower until the JIT has warmed up, so the twin is as
 * fresh as the app under test.
 */
async function startTwins(dsn: string, recorder: Recorder) {
  const [faulty, healthy] = await Promise.all([
    startApp({ env: { SENTRY_DSN: dsn } }),
    startApp({ env: { SENTRY_DSN: recorder.dsn("3") } }),
  ]);
  const errors: string[] = [];
  for (const app of [faulty, healthy]) {
    await load(app.url + PAGE, { total: 1_000 });
    const result = await load(app.url + ERROR_PAGE, { total: 300, keepBodies: true });
    expect(result.statuses.get(500)).toBe(300);
    if (app === faulty) errors.push(...result.bodies);
  }
  return { faulty, healthy, errorPages: errors };
}

/**
 * Latency under the fault against a healthy ingest, after both apps reported
 * the same errors. The median must stay within 10 % (+3 ms); p99, printed for
 * the record, is held only to 2x (+10 ms), which still catches a stalled event
 * loop: at these sample sizes it moved by ±50 % between identical runs on a
 * 2-core machine, and a test must not flake.
 */
async function expectLatencyKept(name: string, faulty: AppServer, healthy: AppServer) {
  const [withFault, withHealthyIngest] = await pairedLatency(faulty, healthy);
  const [, withoutSentry] = await pairedLatency(faulty, sentryOff, 2);
  console.log(
    `${name}: p50 ${withFault!.p50.toFixed(1)} / p99 ${withFault!.p99.toFixed(1)} ms; ` +
      `healthy ingest ${withHealthyIngest!.p50.toFixed(1)} / ${withHealthyIngest!.p99.toFixed(1)} ms ` +
      `(p99 ${(withFault!.p99 / withHealthyIngest!.p99).toFixed(2)}x); Sentry off p99 ${withoutSentry!.p99.toFixed(1)} ms`,
  );
  expect(withFault!.p50).toBeLessThanOrEqual(withHealthyIngest!.p50 * 1.1 + 3);
  expect(withFault!.p99).toBeLessThanOrEqual(withHealthyIngest!.p99 * 2 + 10);
}

const modes: [
  string,
  () => Promise<
    FaultyIngest & { respond?: (recorder: import("./support/sentry-recorder").Recorder) => void }
  >,
][] = [
  ["refusing connections", refusingIngest],
  ["black-holed", blackHoleIngest],
  ["slow (3 s)", () => slowIngest(3_000)],
];

for (const [name, makeIngest] of modes) {
  test(`ingest ${name}: pages keep their latency and every error keeps its log line`, async ({
    recorder,
  }) => {
    const ingest = await makeIngest();
    const { faulty, healthy, errorPages } = await startTwins(ingest.dsn, recorder);
    try {
      // Measure the steady state of a lasting outage: past the server's 5 s send time-out.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      await expectLatencyKept(name, faulty, healthy);
      const digests = errorPages.map((body) => /data-error-digest="([0-9a-f]{12})"/.exec(body)?.[1]);
      const logged = new Set(faulty.logLines().map((line) => line.digest));
      expect(digests.filter((digest) => !digest || !logged.has(digest))).toEqual([]);
    } finally {
      await Promise.all([faulty.stop(), healthy.stop()]);
      await ingest.close();
    }
  });
}

for (const status of [429, 500]) {
  test(`ingest answering ${status}: pages keep their latency`, async ({ recorder }) => {
    const failing = await startRecorder();
    failing.respondNext(100_000, status);
    const { faulty, healthy } = await startTwins(failing.dsn(), recorder);
    try {
      await expectLatencyKept(`answering ${status}`, faulty, healthy);
    } finally {
      await Promise.all([faulty.stop(), healthy.stop()]);
      await failing.close();
    }
  });
}

test("memory stays bounded over 10 000 requests that each report an error (ingest black-holed)", async () => {
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
      await load(app.url + ERROR_PAGE, { total: 6_000, concurrency: 20 });
      const warm = rssMiB(app.process.pid!);
      const result = await load(app.url + ERROR_PAGE, { total: 10_000, concurrency: 20 });
      expect(result.statuses.get(500)).toBe(10_000);
      rss[name] = { warm, end: rssMiB(app.process.pid!) };
    }
    console.log(`RSS (MiB) after 6 000 errors and after 10 000 more: ${JSON.stringify(rss)}`);
    const on = rss["Sentry on, ingest black-holed"]!;
    const off = rss["Sentry off"]!;
    // V8's heap keeps growing under this load with Sentry off as well: what must
    // stay bounded is what reporting adds on top (the send buffer holds 64 at most).
    expect(on.end - on.warm - (off.end - off.warm)).toBeLessThan(64);
    expect(on.end).toBeLessThanOrEqual(off.end * 1.5);
    const errorLines = reporting.logLines().filter((line) => line.level === "error" && line.digest);
    expect(errorLines).toHaveLength(16_000);
  } finally {
    await Promise.all([reporting.stop(), silent.stop()]);
    await ingest.close();
  }
});
