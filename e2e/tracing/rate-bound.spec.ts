/**
 * SENTRY_TRACES_PER_SECOND (decision record 0090) wired end to end, with the real SDK against the
 * recorder: a fixed number of requests, plain and with a forged sampled `sentry-trace`, far more
 * than a cap of one trace a second lets through on any machine that serves a few a second. What
 * reaches the recorder is counted: never more than the bucket holds (the cap, refilled at the cap a
 * second), forged traces refused like any other, each decision handed on at the rate it was made
 * with. The budget's pace (about the cap a second, Σ 1/rate counting the requests) is unit-tested
 * on an injected clock (app/monitoring/trace-budget.server.test.ts); what a forged header costs is
 * the benchmark's (`npm run bench -- goals`). The configured rate under the cap, and a burst under
 * it traced whole: e2e/tracing/sampling.spec.ts.
 */
import { randomBytes } from "node:crypto";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import type { EnvelopeItem } from "../../test-support/sentry-recorder";
import {
  clientNavigate,
  expect,
  isTransaction,
  openTraced,
  opOf,
  pageTrace,
  reportingTo,
  test,
  traceIdOf,
} from "../support/spec-helpers";

const CAP = 1;
test.use({ appEnv: { SENTRY_TRACES_PER_SECOND: String(CAP) } });
test.use({ serverStarts: 2 }); // its appEnv, and the refill test's larger bucket

/** Bounds a load that runs until something happens, whatever the machine's pace. */
const MAX_REQUESTS = 5_000;
const CONCURRENCY = 8;
/** The single fetch: the cheapest traced request. */
const PATH = "/fixtures/items/1.data";

/** Now, in seconds of the epoch: the clock the server counts its seconds in. */
const epochSeconds = () => (performance.timeOrigin + performance.now()) / 1000;

/** Requests CONCURRENCY at a time until `count` were sent or `done()`, each answered 200; how many. */
async function send(
  app: AppServer,
  { count = MAX_REQUESTS, done = () => false, headers = () => ({}) }: SendOptions,
): Promise<number> {
  let sent = 0;
  const worker = async () => {
    while (sent < count && !done()) {
      sent++;
      const response = await fetch(app.url + PATH, { headers: headers() });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return sent;
}

interface SendOptions {
  count?: number;
  done?: () => boolean;
  headers?: () => Record<string, string>;
}

const isServerTransaction = (item: EnvelopeItem) => isTransaction(item) && opOf(item) === "http.server";
const startOf = (item: EnvelopeItem) => Number(item.payload!.start_timestamp);
const rateOf = (item: EnvelopeItem) =>
  Number(
    (item.payload!.contexts as { trace: { data: Record<string, unknown> } }).trace.data["sentry.sample_rate"],
  );

/** A document's `baggage` meta tag: the rate, number and decision it hands the browser. */
async function pageSampling(app: AppServer, headers: Record<string, string> = {}) {
  const html = await (await fetch(`${app.url}/fixtures/items/1`, { headers })).text();
  const baggage = /name="baggage" content="([^"]*)"/.exec(html)?.[1] ?? "";
  const entry = (key: string) => new RegExp(`sentry-${key}=([^,]*)`).exec(baggage)?.[1];
  return {
    sampleRate: Number(entry("sample_rate")),
    sampleRand: Number(entry("sample_rand")),
    sampled: entry("sampled"),
  };
}

/** How many of `times` (epoch s) fall in each second of the epoch, the windows the server counts in. */
function perSecond(times: number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const time of times) counts.set(Math.floor(time), (counts.get(Math.floor(time)) ?? 0) + 1);
  return counts;
}

/** Waits until the count stops growing: the transport sends each transaction as it ends. */
async function settledTransactions(recorder: { items(): EnvelopeItem[] }, since: number) {
  let seen = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const items = recorder.items().filter((item) => isServerTransaction(item) && startOf(item) >= since);
    if (items.length === seen) return items;
    seen = items.length;
  }
}

/** The most traces the bucket allows over `times`: its fill, plus the cap a second of refill. */
function bucketAllows(times: number[]): number {
  return CAP + CAP * (Math.max(...times) - Math.min(...times)) + 1;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
/** A client that asks for every request to be traced, and wins every draw it can. */
const forged = () => {
  const traceId = hex(16);
  return {
    "sentry-trace": `${traceId}-${hex(8)}-1`,
    baggage: `sentry-trace_id=${traceId},sentry-sample_rate=1,sentry-sample_rand=0.000001,sentry-sampled=true`,
  };
};

/** The traced transactions' bounds, wherever they fell in time. */
function expectWithinTheBucket(traced: EnvelopeItem[]) {
  expect(traced.length).toBeGreaterThan(0);
  // A second's traces: at most twice the cap (a full bucket and a second's refill); one more allowed
  // at the edge, where the decision and the span's start (microseconds apart) can fall in two seconds.
  expect(Math.max(...perSecond(traced.map(startOf)).values())).toBeLessThanOrEqual(2 * CAP + 1);
  expect(traced.length).toBeLessThanOrEqual(bucketAllows(traced.map(startOf)));
}

test("plain and forged requests far above the cap: no more traced than the bucket holds, forged ones refused alike", async ({
  app,
  recorder,
}) => {
  const PLAIN = 80;
  const FORGED = 80;
  const forgedTraces = new Set<string>();
  const forgedHeaders = () => {
    const headers = forged();
    forgedTraces.add(headers["sentry-trace"].slice(0, 32));
    return headers;
  };
  const since = epochSeconds();
  await Promise.all([send(app, { count: PLAIN }), send(app, { count: FORGED, headers: forgedHeaders })]);
  const span = epochSeconds() - since;
  // The premise: more requests than the bucket allows over their own span (a second per request
  // allowed, so a machine serving two a second still meets it).
  expect(PLAIN + FORGED, "requests beyond what the bucket allows over their span").toBeGreaterThan(
    bucketAllows([since, since + span]),
  );
  const traced = await settledTransactions(recorder, since);
  const tracedForged = traced.filter((item) => forgedTraces.has(traceIdOf(item)!));
  console.log(
    `trace cap ${CAP}: ${PLAIN} plain and ${FORGED} forged requests in ${span.toFixed(1)} s, ` +
      `${traced.length} traced (${tracedForged.length} forged)`,
  );
  expectWithinTheBucket(traced);
  expect(tracedForged.length).toBeLessThan(FORGED);
  // Each transaction records the rate it was decided with, and so does its envelope's trace header,
  // which the services it calls continue.
  for (const item of traced) {
    const envelope = recorder.envelopes.find((candidate) => candidate.items.includes(item))!;
    expect(Number((envelope.header.trace as Record<string, string>).sample_rate)).toBe(rateOf(item));
  }
});

test("a burst after a quiet spell stays within the bucket, and its pages carry the lowered rate", async ({
  app,
  recorder,
}) => {
  // Two idle seconds: the server expects no arrivals, and the bucket is full.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const since = epochSeconds();
  expect(await send(app, { count: 20 * CAP })).toBe(20 * CAP);
  // Pages right after it, while the server still sees the burst's pace: each carries the rate it
  // was decided with, below the configured 1, for the browser to continue.
  const pages = await Promise.all(Array.from({ length: 5 }, () => pageSampling(app)));
  for (const page of pages) {
    expect(page.sampleRate).toBeLessThan(1);
    expect(page.sampled).toBe(String(page.sampleRand < page.sampleRate));
  }
  expectWithinTheBucket(await settledTransactions(recorder, since));
});

test("forged pages sent at once: some refused, each saying so at the rate it was decided with", async ({
  app,
}) => {
  // More forged pages at once than the bucket holds: however they reach the server, some are refused.
  const burst = await Promise.all(Array.from({ length: 20 * CAP }, () => pageSampling(app, forged())));
  // A refused page says so, at its rate: the browser and the services it calls follow (no orphan
  // spans below a dropped transaction).
  for (const page of burst) expect(page.sampled).toBe(String(page.sampleRand < page.sampleRate));
  expect(burst.filter((page) => page.sampled === "false").length).toBeGreaterThan(0);
});

test("a page served under load hands the browser its lowered rate, which its navigations start at", async ({
  app,
  page,
}) => {
  // A burst drains the bucket first, then the load goes on until the page is in.
  await send(app, { count: 20 });
  let served = false;
  const load = send(app, { done: () => served });
  await openTraced(page, "/fixtures/shapes/list");
  served = true;
  const given = Number(/sentry-sample_rate=([^,]*)/.exec((await pageTrace(page)).baggage)?.[1]);
  await load;
  expect(given, "the rate the page was given under load").toBeLessThan(1);
  // A client navigation: a new trace, started by the browser at the page's rate, not the configured 1.
  const data = page.waitForRequest(
    (request) => new URL(request.url()).pathname === "/fixtures/shapes/list/7.data",
  );
  await page.getByRole("link", { name: "Item 7" }).click();
  const baggage = (await data).headers().baggage ?? "";
  expect(Number(/sentry-sample_rate=([^,]*)/.exec(baggage)?.[1])).toBe(given);
});

test("a tab that loaded on a drained budget traces navigations again once the budget refills", async ({
  page,
  recorder,
}) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS + 60_000);
  // A bucket of five: a navigation traced after the refill leaves the rate at 1 for the next one.
  const app = await startApp({ env: { ...reportingTo(recorder), SENTRY_TRACES_PER_SECOND: "5" } });
  try {
    // A burst drains the bucket first, then the load goes on until the page is in.
    await send(app, { count: 100 });
    let served = false;
    const load = send(app, { done: () => served });
    await openTraced(page, `${app.url}/fixtures/shapes/list`);
    served = true;
    await load;
    const given = Number(/sentry-sample_rate=([^,]*)/.exec((await pageTrace(page)).baggage)?.[1]);
    expect(given, "the rate the page was given on a drained budget").toBeLessThan(1);
    // Idle: the bucket refills within a second, the load's pace fades from the estimate by e each second.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const first = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/fixtures/shapes/list/7.data",
    );
    await page.getByRole("link", { name: "Item 7" }).click();
    expect((await (await first).allHeaders())["server-timing"]).toContain("sentry-rate;desc=1");
    // The browser has the response's timing once Resource Timing lists it.
    await page.waitForFunction(() =>
      performance
        .getEntriesByType("resource")
        .some((entry) =>
          (entry as PerformanceResourceTiming).serverTiming.some(({ name }) => name === "sentry-rate"),
        ),
    );
    const second = page.waitForRequest(
      (request) => new URL(request.url()).pathname === "/fixtures/shapes/list/8.data",
    );
    await clientNavigate(page, "/fixtures/shapes/list/8");
    const baggage = (await second).headers().baggage ?? "";
    expect(/sentry-sample_rate=([^,]*)/.exec(baggage)?.[1]).toBe("1");
    expect(baggage).toContain("sentry-sampled=true");
    const traceId = /sentry-trace_id=([0-9a-f]{32})/.exec(baggage)![1]!;
    await recorder.waitForItem(
      (item) => isTransaction(item) && opOf(item) === "navigation" && traceIdOf(item) === traceId,
    );
  } finally {
    await app.stop();
  }
});
