/**
 * The e2e specs' `test` (test-support/test-with-app.ts: a recorder and an app
 * server per worker) and the helpers they share: predicates on recorded
 * items, waits, and what error pages show.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect } from "../../test-support/test-with-app";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import { DIGEST_ATTRIBUTE, DIGEST_PATTERN } from "../../app/errors/digest";

export { expect, reportingTo, test } from "../../test-support/test-with-app";

/**
 * A request predicate for the form post to `pathname` (a document POST, or its
 * `.data` single fetch). Not "the first POST": the browser SDK posts its
 * envelopes too, and one may go out first.
 */
export function isFormPostTo(pathname: string) {
  return (request: import("@playwright/test").Request) =>
    request.method() === "POST" && new URL(request.url()).pathname.replace(/\.data$/, "") === pathname;
}

/** The error event items of the recorder. */
export const isErrorEvent = (item: EnvelopeItem) => item.type === "event";
export const isTransaction = (item: EnvelopeItem) => item.type === "transaction";

/** The first exception's message of an error event. */
export function exceptionValue(item: EnvelopeItem): string | undefined {
  return item.payload?.exception?.values?.at(-1)?.value;
}

/** How long "nothing more arrives" is watched for, after the expected items arrived. */
export const SETTLE_MS = 1_500;

/**
 * Waits until `count` matching items arrived, then `SETTLE_MS` more, and
 * returns every match: callers assert the exact count (exactly one, none).
 */
export async function settledItems(
  recorder: Recorder,
  predicate: (item: EnvelopeItem) => boolean,
  count: number,
): Promise<EnvelopeItem[]> {
  if (count > 0) await recorder.waitForItems((item) => predicate(item), { count });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return recorder.items().filter(predicate);
}

/** The digest shown on an error page. */
export async function digestOnPage(page: Page): Promise<string> {
  const digest = await page.locator(`[${DIGEST_ATTRIBUTE}]`).textContent();
  expect(digest).toMatch(DIGEST_PATTERN);
  return digest!;
}

/** Waits until a fixture page has hydrated (fixtures render `HydratedMarker`). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.getByTestId("hydrated").waitFor({ state: "attached" });
}

export const SERVER_ERROR_HEADING =
  "Application error: a server-side exception has occurred (see the server logs for more information).";
export const CLIENT_ERROR_HEADING =
  "Application error: a client-side exception has occurred (see the browser console for more information).";

// ---------------------------------------------------------------------------
// Sentry helpers (e2e/errors/, e2e/sentry/, e2e/tracing/)
// ---------------------------------------------------------------------------

/** Error events the server sent, and those the browser sent. */
export const isServerEvent = (item: EnvelopeItem) => isErrorEvent(item) && item.payload?.platform === "node";
export const isBrowserEvent = (item: EnvelopeItem) =>
  isErrorEvent(item) && item.payload?.platform === "javascript";

/** The trace id of an event or transaction. */
export function traceIdOf(item: EnvelopeItem): string | undefined {
  return item.payload?.contexts?.trace?.trace_id;
}

/** The `op` of a transaction (`http.server`, `pageload`, `navigation`). */
export function opOf(item: EnvelopeItem): string | undefined {
  return item.payload?.contexts?.trace?.op;
}

/**
 * Narrows predicates to items that arrive from now on. The recorder lives as
 * long as the worker, so it also holds what earlier tests caused; "exactly
 * one" and "none" must only count what this test caused.
 */
export function fromNowOn(recorder: Recorder) {
  const before = new Set(recorder.items());
  return (predicate: (item: EnvelopeItem) => boolean) => (item: EnvelopeItem) =>
    !before.has(item) && predicate(item);
}

/** Trace id, span id and sampling flag of a `sentry-trace` value (`<trace>-<span>[-<sampled>]`). */
export function parseSentryTrace(value: string | null | undefined) {
  const match = /^([0-9a-f]{32})-([0-9a-f]{16})(?:-([01]))?$/.exec(value ?? "");
  if (!match) throw new Error(`not a sentry-trace value: ${value}`);
  return { traceId: match[1]!, spanId: match[2]!, sampled: match[3] };
}

/** The trace a server-rendered page hands to the browser in `<meta name="sentry-trace">` and `<meta name="baggage">`. */
export async function pageTrace(page: Page) {
  const sentryTrace = await page.locator('meta[name="sentry-trace"]').getAttribute("content");
  const baggage = await page.locator('meta[name="baggage"]').getAttribute("content");
  return { ...parseSentryTrace(sentryTrace), baggage: baggage ?? "" };
}

/**
 * Waits until the browser's tracing integration runs. It is added when the
 * page is idle after hydration (client-monitoring.tsx), so a test that leaves
 * a page at once would otherwise leave before its page load was measured.
 */
export async function waitForTracing(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    type Client = { getIntegrationByName(name: string): unknown };
    type Carrier = Record<string, { defaultCurrentScope?: { getClient(): Client | undefined } }>;
    const carrier = (window as unknown as { __SENTRY__?: Carrier & { version: string } }).__SENTRY__;
    const client = carrier?.[carrier.version]?.defaultCurrentScope?.getClient();
    return Boolean(client?.getIntegrationByName("BrowserTracing"));
  });
}

/** Opens a fixture page and waits until it has hydrated and the browser's tracing runs; its response. */
export async function openTraced(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page);
  await waitForTracing(page);
  return response;
}

/** A new sampled trace, as a `sentry-trace` header: requests the test makes itself carry a trace id it knows. */
export function newTrace(): { traceId: string; headers: Record<string, string> } {
  const hex = (bytes: number) => randomBytes(bytes).toString("hex");
  const traceId = hex(16);
  return { traceId, headers: { "sentry-trace": `${traceId}-${hex(8)}-1` } };
}

/** Navigates the way a `<Link>` does (single fetch), to a path no link on the page points at. */
export async function clientNavigate(page: Page, to: string): Promise<void> {
  await page.evaluate(
    (path) =>
      (
        window as unknown as { __remixRouter: { navigate(to: string): Promise<void> } }
      ).__remixRouter.navigate(path),
    to,
  );
}
