/**
 * Noise filters, in real Chromium against the production
 * build with the real SDK and the local recorder: the browser's opaque
 * cross-origin "Script error." and both wordings of the ResizeObserver loop
 * notice are never reported, while a real error thrown in the same page is,
 * exactly once. Each noise is first shown to have really reached the page.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import {
  expect,
  fromNowOn,
  isErrorEvent,
  settledItems,
  test,
  waitForHydration,
} from "../support/spec-helpers";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";

const CONTROL_ERROR = "Fixture: control error";

/** A second origin (another port of 127.0.0.1) serving a script that throws. */
let otherOrigin: Server;
let throwingScriptUrl: string;

test.beforeAll(async () => {
  otherOrigin = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/javascript", "Cache-Control": "no-store" });
    response.end('throw new Error("Fixture: cross-origin detail the page must not see");\n');
  });
  await new Promise<void>((resolve) => otherOrigin.listen(0, "127.0.0.1", resolve));
  throwingScriptUrl = `http://127.0.0.1:${(otherOrigin.address() as AddressInfo).port}/throws.js`;
});

test.afterAll(async () => {
  otherOrigin.closeAllConnections();
  await new Promise((resolve) => otherOrigin.close(resolve));
});

test.beforeEach(async ({ page }) => {
  // Every `error` event the window sees, to prove the noise really happened.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seenErrors: string[] }).seenErrors = seen;
    window.addEventListener("error", (event) => seen.push(event.message));
  });
  await page.goto("/fixtures/noise");
  await waitForHydration(page);
});

function seenErrors(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { seenErrors: string[] }).seenErrors);
}

const valueOf = (item: EnvelopeItem) => item.payload.exception?.values?.at(-1)?.value ?? item.payload.message;

/** The control error, thrown after the noise, is the one event the page sent. */
async function expectOnlyTheControlError(
  page: Page,
  recorder: Recorder,
  fresh: ReturnType<typeof fromNowOn>,
) {
  await page.getByRole("button", { name: "Throw a control error" }).click();
  await expect.poll(() => seenErrors(page)).toContain(`Uncaught Error: ${CONTROL_ERROR}`);
  const events = await settledItems(recorder, fresh(isErrorEvent), 1);
  expect(events.map(valueOf)).toEqual([CONTROL_ERROR]);
}

test("a cross-origin script error is not reported", async ({ page, recorder }) => {
  const fresh = fromNowOn(recorder);
  await page.evaluate((src) => {
    const script = document.createElement("script");
    script.src = src;
    document.body.append(script);
  }, throwingScriptUrl);
  // Without CORS the browser hides the error behind "Script error.".
  await expect.poll(() => seenErrors(page)).toEqual(["Script error."]);

  await expectOnlyTheControlError(page, recorder, fresh);
});

test("ResizeObserver loop notices are not reported, in either wording", async ({ page, recorder }) => {
  const fresh = fromNowOn(recorder);
  await page.getByRole("button", { name: "Start a ResizeObserver loop" }).click();
  await expect
    .poll(() => seenErrors(page))
    .toContain("ResizeObserver loop completed with undelivered notifications.");
  // The wording of older browsers, delivered the way they did: an ErrorEvent without an error.
  await page.evaluate(() =>
    window.dispatchEvent(new ErrorEvent("error", { message: "ResizeObserver loop limit exceeded" })),
  );
  expect(await seenErrors(page)).toContain("ResizeObserver loop limit exceeded");

  await expectOnlyTheControlError(page, recorder, fresh);
});
