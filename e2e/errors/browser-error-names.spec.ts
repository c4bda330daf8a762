/**
 * Browser errors are named by the route pattern of the page they happen on
 * (the event's `transaction`) from the first moment: a client loader that
 * fails while the page hydrates, a crash in the first renders, an error in an
 * effect, and after a client-side navigation the new page's name, also on an
 * error page. The same on a page the server traced (tracing starts after
 * hydration) and on one it did not (tracing never starts): the name must not
 * wait for tracing.
 */
import type { Page } from "@playwright/test";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import type { Recorder } from "../../test-support/sentry-recorder";
import {
  CLIENT_ERROR_HEADING,
  clientNavigate,
  exceptionValue,
  expect,
  fromNowOn,
  isBrowserEvent,
  reportingTo,
  settledItems,
  test,
  waitForHydration,
} from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // an untraced app

/** A server that traces no request: its pages never load the browser's tracing. */
const untraced: { server?: AppServer } = {};
test.beforeAll(async ({ recorder }) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  untraced.server = await startApp({
    env: reportingTo(recorder, "0"),
  });
});
test.afterAll(async () => untraced.server?.stop());

/** The one browser event the test caused: its exception value and its `transaction`. */
async function oneBrowserEvent(recorder: Recorder, fresh: ReturnType<typeof fromNowOn>) {
  const events = await settledItems(recorder, fresh(isBrowserEvent), 1);
  expect(events).toHaveLength(1);
  return { value: exceptionValue(events[0]!), transaction: events[0]!.payload.transaction as unknown };
}

async function expectErrorPage(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(CLIENT_ERROR_HEADING);
}

for (const tracing of ["traced", "untraced"] as const) {
  test.describe(`on a page the server ${tracing}`, () => {
    /** The origin of the server under test. */
    const origin = (app: AppServer) => (tracing === "traced" ? app : untraced.server!).url;

    test("a client loader that fails while the page hydrates", async ({ page, app, recorder }) => {
      const fresh = fromNowOn(recorder);
      await page.goto(`${origin(app)}/fixtures/client-loader-hydrate-error`);
      await expectErrorPage(page);
      expect(await oneBrowserEvent(recorder, fresh)).toEqual({
        value: "Fixture: client loader failed on hydration",
        transaction: "/fixtures/client-loader-hydrate-error",
      });
    });

    test("a crash in the first renders", async ({ page, app, recorder }) => {
      const fresh = fromNowOn(recorder);
      await page.goto(`${origin(app)}/fixtures/client-render-error`);
      await expectErrorPage(page);
      expect(await oneBrowserEvent(recorder, fresh)).toEqual({
        value: "Fixture: client render failed",
        transaction: "/fixtures/client-render-error",
      });
    });

    test("an error in an effect", async ({ page, app, recorder }) => {
      const fresh = fromNowOn(recorder);
      await page.goto(`${origin(app)}/fixtures/effect-error`);
      await expectErrorPage(page);
      expect(await oneBrowserEvent(recorder, fresh)).toEqual({
        value: "Fixture: effect failed",
        transaction: "/fixtures/effect-error",
      });
    });

    // Sentry's own React Router app names such an error by its URL (`/errors/client/churros`); here it is the pattern.
    test("an uncaught error on a page with a dynamic segment: its pattern, not its URL", async ({
      page,
      app,
      recorder,
    }) => {
      await page.goto(`${origin(app)}/fixtures/items/42`);
      await waitForHydration(page);
      const fresh = fromNowOn(recorder);
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error("Fixture: uncaught error on an item");
        });
      });
      const [event] = await settledItems(recorder, fresh(isBrowserEvent), 1);
      expect(exceptionValue(event!)).toBe("Fixture: uncaught error on an item");
      // As in Sentry's own apps: the page's URL and a trace beside the name.
      expect(event!.payload).toMatchObject({
        transaction: "/fixtures/items/:id",
        request: { url: `${origin(app)}/fixtures/items/42` },
        contexts: { trace: { trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) } },
      });
    });

    test("after a client-side navigation: the new page's name, on its error page too", async ({
      page,
      app,
      recorder,
    }) => {
      await page.goto(`${origin(app)}/fixtures/items/1`);
      await waitForHydration(page);
      let fresh = fromNowOn(recorder);
      await clientNavigate(page, "/fixtures/event-error");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Event error fixture");
      await waitForHydration(page);
      await page.getByRole("button", { name: "Fail uncaught" }).click();
      expect(await oneBrowserEvent(recorder, fresh)).toEqual({
        value: "Fixture: uncaught handler error",
        transaction: "/fixtures/event-error",
      });

      fresh = fromNowOn(recorder);
      await clientNavigate(page, "/fixtures/client-loader-error");
      await expectErrorPage(page);
      expect(await oneBrowserEvent(recorder, fresh)).toEqual({
        value: "Fixture: client loader failed",
        transaction: "/fixtures/client-loader-error",
      });
    });
  });
}
