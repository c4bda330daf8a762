/**
 * The sample rate, between 0 and 1 (decision record 0032): the server decides
 * each request once, before any span exists (trace-sampling.server.ts), and the SDK
 * must decide the same, or a rate of r traces r² of new traces and none of a
 * trace continued from upstream. Over plain HTTP (no browser), against a
 * server at 50 %:
 *  - about half of the new traces are traced, and a page says `-1` exactly
 *    when its transaction arrives;
 *  - an incoming decision is followed whatever the rate, and an incoming trace
 *    that made none is decided by its `sample_rand`.
 */
import { randomBytes } from "node:crypto";
import type { AppServer } from "../../test-support/app-server";
import { expect, isTransaction, opOf, settledItems, test, traceIdOf } from "../support/spec-helpers";
import type { EnvelopeItem } from "../../test-support/sentry-recorder";

test.use({ serverStarts: 1 }); // its appEnv

const RATE = 0.5;
const PAGES = 200;

test.use({
  appEnv: {
    SENTRY_TRACES_SAMPLE_RATE: String(RATE),
    // Far above this spec's pace: under its cap, every new trace is decided at exactly the rate.
    SENTRY_TRACES_PER_SECOND: "1000",
  },
});

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** The page's `sentry-trace` meta tag: its trace id and decision. */
async function pageDecision(app: AppServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}/fixtures/items/1`, { headers });
  expect(response.status).toBe(200);
  const match = /name="sentry-trace" content="([0-9a-f]{32})-[0-9a-f]{16}(?:-([01]))?"/.exec(
    await response.text(),
  );
  expect(match, "the page's sentry-trace meta tag").not.toBeNull();
  return { traceId: match![1]!, sampled: match![2] };
}

const serverTransactionOf = (traceIds: Set<string>) => (item: EnvelopeItem) =>
  isTransaction(item) && opOf(item) === "http.server" && traceIds.has(traceIdOf(item) ?? "");

test("new traces: about the rate of them are traced, and a page says so exactly when it is", async ({
  app,
  recorder,
}) => {
  const pages = [];
  for (let i = 0; i < PAGES; i++) pages.push(await pageDecision(app));
  const traced = new Set(pages.filter((page) => page.sampled === "1").map((page) => page.traceId));
  const untraced = new Set(pages.filter((page) => page.sampled === "0").map((page) => page.traceId));
  expect(traced.size + untraced.size).toBe(PAGES);

  // Binomial(200, 0.5): 100 ± 7 (one standard deviation); 70..130 fails by chance about once in
  // 10⁵ runs, while two independent decisions (r², 25 %) would give 50 ± 6.
  expect(traced.size).toBeGreaterThanOrEqual(PAGES * (RATE - 0.15));
  expect(traced.size).toBeLessThanOrEqual(PAGES * (RATE + 0.15));

  const arrived = await settledItems(recorder, serverTransactionOf(traced), traced.size);
  expect(new Set(arrived.map(traceIdOf))).toEqual(traced);
  expect(arrived).toHaveLength(traced.size);
  expect(recorder.items().filter(serverTransactionOf(untraced))).toEqual([]);
  for (const item of arrived) {
    // The transaction reports the rate it was sampled at, with the number it was decided by.
    const dsc = recorder.envelopes.find((envelope) => envelope.items.includes(item))!.header.trace as Record<
      string,
      string
    >;
    expect(dsc.sample_rate).toBe(String(RATE));
    expect(Number(dsc.sample_rand)).toBeLessThan(RATE);
  }
});

test("a continued trace: the upstream decision wins, else its sample_rand decides", async ({
  app,
  recorder,
}) => {
  const cases = [
    { header: "-1", baggage: undefined, traced: true },
    { header: "-0", baggage: undefined, traced: false },
    { header: "", baggage: "sentry-sample_rand=0.1", traced: true },
    { header: "", baggage: "sentry-sample_rand=0.9", traced: false },
  ];
  const expected = { traced: new Set<string>(), untraced: new Set<string>() };
  for (const { header, baggage, traced } of cases) {
    for (let i = 0; i < 10; i++) {
      const traceId = hex(16);
      const headers: Record<string, string> = { "sentry-trace": `${traceId}-${hex(8)}${header}` };
      if (baggage) headers.baggage = `sentry-trace_id=${traceId},${baggage}`;
      const page = await pageDecision(app, headers);
      expect(page.traceId, "the page continues the incoming trace").toBe(traceId);
      (traced ? expected.traced : expected.untraced).add(traceId);
    }
  }
  const arrived = await settledItems(recorder, serverTransactionOf(expected.traced), expected.traced.size);
  expect(new Set(arrived.map(traceIdOf))).toEqual(expected.traced);
  expect(recorder.items().filter(serverTransactionOf(expected.untraced))).toEqual([]);
});
