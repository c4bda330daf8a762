/**
 * Limits, in real Chromium against the production build
 * with the real SDKs and the local recorder:
 *  - 100 breadcrumbs and a 64-send transport buffer on both sides (the
 *    options each side hands to the SDK are unit-tested in
 *    app/monitoring/sentry-options.test.ts; here the running SDKs show them);
 *  - a 429 without headers makes the SDK stop sending for a while (60 s by
 *    the SDK's default; watched here for a bounded 5 s): it does not even try.
 */
import type { Page } from "@playwright/test";
import { startApp } from "../../test-support/app-server";
import {
  startRecorder,
  type EnvelopeItem,
  type RecordedEnvelope,
  type Recorder,
} from "../../test-support/sentry-recorder";
import {
  digestOnPage,
  expect,
  fromNowOn,
  isErrorEvent,
  isTransaction,
  opOf,
  pageTrace,
  reportingTo,
  SETTLE_MS,
  settledItems,
  test,
  traceIdOf,
  waitForHydration,
} from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // one its test stops

/** How long "nothing more is sent" is watched after a 429: far below the 60 s backoff. */
const BACKOFF_WATCH_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Breadcrumb {
  category?: string;
  message?: string;
}

function breadcrumbsOf(item: EnvelopeItem): Breadcrumb[] {
  return item.payload.breadcrumbs ?? [];
}

/** The noise page, hydrated, once its page load transaction has arrived (nothing more is pending). */
async function openQuietPage(page: Page, recorder: Recorder): Promise<void> {
  await page.goto("/fixtures/noise");
  await waitForHydration(page);
  const { traceId } = await pageTrace(page);
  await recorder.waitForItem(
    (item) => isTransaction(item) && opOf(item) === "pageload" && traceIdOf(item) === traceId,
  );
}

/**
 * Makes the recorder answer the next envelope with a bare 429, and returns a
 * function that resolves with that envelope once it has been recorded.
 */
function refuseNextWith429(recorder: Recorder): () => Promise<RecordedEnvelope> {
  const before = new Set(recorder.envelopes);
  recorder.respondNext(1, 429);
  return async () => {
    let refused: RecordedEnvelope | undefined;
    await expect
      .poll(
        () => (refused = recorder.envelopes.find((sent) => !before.has(sent) && sent.answeredStatus === 429)),
      )
      .toBeDefined();
    return refused!;
  };
}

test.describe("breadcrumbs and buffer", () => {
  test("the browser SDK runs with 100 breadcrumbs and a 64-send buffer", async ({ page }) => {
    await page.goto("/fixtures/noise");
    await waitForHydration(page);
    // The SDK's own global carrier; nothing is exposed for the test.
    const options = await page.evaluate(() => {
      type Carrier = Record<
        string,
        { defaultCurrentScope?: { getClient(): { getOptions(): Record<string, unknown> } } }
      >;
      const carrier = (window as unknown as { __SENTRY__: Carrier & { version: string } }).__SENTRY__;
      const resolved = carrier[carrier.version]!.defaultCurrentScope!.getClient().getOptions();
      return { maxBreadcrumbs: resolved.maxBreadcrumbs, transportOptions: resolved.transportOptions };
    });
    expect(options).toEqual({ maxBreadcrumbs: 100, transportOptions: { bufferSize: 64 } });
  });

  test("a browser event keeps the newest 100 of 150 breadcrumbs", async ({ page, recorder }) => {
    await page.goto("/fixtures/noise");
    await waitForHydration(page);
    const fresh = fromNowOn(recorder);
    await page.evaluate(() => {
      for (let index = 0; index < 150; index += 1) console.log(`Fixture: browser breadcrumb ${index}`);
    });
    await page.getByRole("button", { name: "Throw a control error" }).click();

    const events = await settledItems(recorder, fresh(isErrorEvent), 1);
    expect(events).toHaveLength(1);
    const messages = breadcrumbsOf(events[0]!).map((crumb) => crumb.message);
    expect(messages).toHaveLength(100);
    expect(messages).toContain("Fixture: browser breadcrumb 149");
    expect(messages).not.toContain("Fixture: browser breadcrumb 49");
  });

  test("a server event keeps the newest 100 of 150 breadcrumbs", async ({ page, recorder }) => {
    await page.goto("/fixtures/breadcrumbs?count=150");
    const digest = await digestOnPage(page);

    const events = await settledItems(
      recorder,
      (item) => isErrorEvent(item) && item.payload.tags?.digest === digest,
      1,
    );
    expect(events).toHaveLength(1);
    const crumbs = breadcrumbsOf(events[0]!);
    expect(crumbs).toHaveLength(100);
    const messages = crumbs.map((crumb) => crumb.message);
    expect(messages).toContain("Fixture: server breadcrumb 149");
    expect(messages).not.toContain("Fixture: server breadcrumb 49");
  });
});

test.describe("backoff after a 429 without headers", () => {
  test("the browser stops sending: later errors are not even tried", async ({
    page,
    recorder,
    browserErrors,
  }) => {
    await openQuietPage(page, recorder);
    const fresh = fromNowOn(recorder);

    const refusedEnvelope = refuseNextWith429(recorder);
    const throwControlError = () => page.getByRole("button", { name: "Throw a control error" }).click();
    await throwControlError();
    const refused = await refusedEnvelope();
    // The browser's own envelope got the 429: its error event.
    expect(String(refused.headers["user-agent"])).toContain("Chrome");
    expect(refused.items.map((item) => item.type)).toEqual(["event"]);
    // Only the browser's requests: the worker's server reports to the same recorder.
    const browserRequests = () =>
      recorder.envelopes.filter((envelope) => String(envelope.headers["user-agent"]).includes("Chrome"))
        .length;
    const requestsSoFar = browserRequests();

    for (let index = 0; index < 3; index += 1) await throwControlError();
    await sleep(BACKOFF_WATCH_MS);
    // Four uncaught errors happened in the page; only the first was sent.
    expect(browserErrors.filter((message) => message.includes("Fixture: control error"))).toHaveLength(4);
    expect(browserRequests()).toBe(requestsSoFar);
    expect(recorder.items().filter(fresh(isErrorEvent))).toHaveLength(1);
  });

  test("the server stops sending: later errors are not even tried", async ({ request }) => {
    // A server of its own: its SDK stays quiet for 60 s after this test.
    const recorder = await startRecorder();
    const app = await startApp({
      env: reportingTo(recorder),
    });
    try {
      const loaderError = async () =>
        expect((await request.get(`${app.url}/fixtures/loader-error`)).status()).toBe(500);
      const refusedEnvelope = refuseNextWith429(recorder);
      await loaderError();
      await refusedEnvelope();
      // The event and the transaction of that request may both have been on their way.
      await sleep(SETTLE_MS);
      const requestsSoFar = recorder.requestCount();

      for (let index = 0; index < 3; index += 1) await loaderError();
      await sleep(BACKOFF_WATCH_MS);
      expect(recorder.requestCount()).toBe(requestsSoFar);
      // They were errors all the same: one log line each.
      expect(app.logLines().filter((line) => line.msg === "unexpected server error")).toHaveLength(4);
    } finally {
      await app.stop();
      await recorder.close();
    }
  });
});
