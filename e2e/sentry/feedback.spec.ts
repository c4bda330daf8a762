/**
 * Sentry's user-feedback widget (SENTRY_FEEDBACK=on): it appears on every
 * page, the 404 and error pages included; it refuses incomplete reports; a
 * complete report reaches Sentry once, through the tunnel; its code is a chunk
 * of the app's own bundle, loaded after hydration; it breaks no CSP rule. With
 * SENTRY_FEEDBACK=off (the default) the browser never downloads it.
 */
import type { Page } from "@playwright/test";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import {
  expect,
  fromNowOn,
  settledItems,
  SERVER_ERROR_HEADING,
  test,
  waitForHydration,
  waitForTracing,
} from "../support/spec-helpers";
import type { EnvelopeItem } from "../../test-support/sentry-recorder";

test.use({ serverStarts: 1 }); // the widget's app

const TUNNEL = "/monitoring";
const TRIGGER = "Report a Bug";
const SUBMIT = "Send Bug Report";
const SUCCESS = "Thank you for your report!";
const CHUNK = /\/assets\/sentry-feedback\.client-[\w-]+\.js$/;

const isFeedback = (item: EnvelopeItem) => item.type === "feedback";
const isCspViolation = (message: string) => /Content Security Policy/i.test(message);

/** True when the Sentry client in the page has an integration of that name. */
function hasIntegration(page: Page, name: string): Promise<boolean> {
  return page.evaluate((integration) => {
    type Client = { getIntegrationByName(name: string): unknown };
    type Carrier = Record<string, { defaultCurrentScope?: { getClient(): Client | undefined } }>;
    const carrier = (window as unknown as { __SENTRY__?: Carrier & { version: string } }).__SENTRY__;
    const client = carrier?.[carrier.version]?.defaultCurrentScope?.getClient();
    return Boolean(client?.getIntegrationByName(integration));
  }, name);
}

/** The widget's trigger button (inside its shadow root: Playwright's locators pierce open ones). */
const trigger = (page: Page) => page.getByRole("button", { name: TRIGGER });

/** Opens the widget's form and returns its fields. */
async function openForm(page: Page) {
  await trigger(page).click();
  const form = page.locator("#sentry-feedback form");
  await expect(form).toBeVisible();
  return {
    form,
    name: form.getByLabel(/^Name/),
    email: form.getByLabel(/^Email/),
    message: form.getByLabel(/^Description/),
    submit: form.getByRole("button", { name: SUBMIT }),
  };
}

test.describe("SENTRY_FEEDBACK=on, through the tunnel", () => {
  let app: AppServer;

  test.beforeAll(async ({ recorder }) => {
    test.setTimeout(SERVER_HOOK_LIMIT_MS);
    app = await startApp({
      env: { SENTRY_DSN: recorder.dsn(), SENTRY_FEEDBACK: "on", SENTRY_TUNNEL_ROUTE: TUNNEL },
    });
  });

  test.afterAll(async () => {
    await app?.stop();
  });

  test("the trigger appears on the start page, the 404 page and an error page, in an open shadow root", async ({
    page,
    browserErrors,
  }) => {
    for (const [pathname, status, heading] of [
      ["/", 200, "Remix + Sentry scaffold"],
      ["/no-such-page", 404, "404"],
      ["/fixtures/loader-error", 500, SERVER_ERROR_HEADING],
    ] as const) {
      const response = await page.goto(app.url + pathname);
      expect(response?.status(), pathname).toBe(status);
      await expect(page.getByRole("heading", { level: 1 }), pathname).toHaveText(heading);
      await expect(trigger(page), pathname).toBeVisible();
      // The widget's DOM is in an open shadow root, not in the page's own light DOM.
      const shadow = await page.evaluate(() => {
        const host = document.getElementById("sentry-feedback");
        return {
          mode: host?.shadowRoot?.mode,
          hasButton: Boolean(host?.shadowRoot?.querySelector("button")),
          inLightDom: document.querySelectorAll("button").length,
        };
      });
      expect(shadow, pathname).toEqual({ mode: "open", hasButton: true, inLightDom: 0 });
    }
    expect(browserErrors.filter(isCspViolation)).toEqual([]);
  });

  test("an incomplete report is refused by the form and sends nothing", async ({
    page,
    recorder,
    browserErrors,
  }) => {
    const since = fromNowOn(recorder);
    const feedbackPosts: string[] = [];
    page.on("request", (request) => {
      if ((request.postData() ?? "").includes('"type":"feedback"')) feedbackPosts.push(request.url());
    });
    await page.goto(app.url + "/");
    const { form, name, email, message, submit } = await openForm(page);

    // Empty: every required field is invalid, and the submission is blocked.
    await submit.click();
    for (const field of [name, email, message]) {
      await expect(field).toHaveJSProperty("validity.valueMissing", true);
      expect(await field.evaluate((input: HTMLInputElement) => input.validationMessage)).not.toBe("");
    }
    expect(await form.evaluate((element: HTMLFormElement) => element.checkValidity())).toBe(false);
    await expect(form).toBeVisible();
    await expect(page.getByText(SUCCESS)).toHaveCount(0);

    // Name and message, but an email that is not one.
    await name.fill("Ada Lovelace");
    await message.fill("This report must not be sent.");
    await email.fill("not-an-email");
    await submit.click();
    await expect(email).toHaveJSProperty("validity.typeMismatch", true);
    await expect(name).toHaveJSProperty("validity.valid", true);
    await expect(message).toHaveJSProperty("validity.valid", true);
    expect(await email.evaluate((input: HTMLInputElement) => input.validationMessage)).not.toBe("");
    await expect(form).toBeVisible();
    await expect(page.getByText(SUCCESS)).toHaveCount(0);

    expect(await settledItems(recorder, since(isFeedback), 0)).toEqual([]);
    expect(feedbackPosts).toEqual([]);
    expect(browserErrors.filter(isCspViolation)).toEqual([]);
  });

  test("a complete report reaches Sentry once, through the tunnel, and the widget thanks the visitor", async ({
    page,
    recorder,
    browserErrors,
  }) => {
    const since = fromNowOn(recorder);
    const direct: string[] = [];
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(recorder.origin)) direct.push(request.url());
      if (!request.url().startsWith(`${app.url}/`)) elsewhere.push(request.url());
    });
    await page.goto(app.url + "/");
    const { name, email, message, submit } = await openForm(page);
    const text = `Feedback e2e ${Date.now()}: the button does nothing.`;
    await name.fill("Ada Lovelace");
    await email.fill("ada@example.com");
    await message.fill(text);

    const [tunnelResponse] = await Promise.all([
      page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === TUNNEL &&
          (response.request().postData() ?? "").includes('"type":"feedback"'),
      ),
      submit.click(),
    ]);
    expect(tunnelResponse.status()).toBe(200);
    await expect(page.getByText(SUCCESS)).toBeVisible();

    const items = await settledItems(recorder, since(isFeedback), 1);
    expect(items).toHaveLength(1);
    expect(items[0]!.payload.contexts.feedback).toMatchObject({
      name: "Ada Lovelace",
      contact_email: "ada@example.com",
      message: text,
      url: `${app.url}/`,
    });
    expect(direct).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(browserErrors.filter(isCspViolation)).toEqual([]);
  });

  test("its chunk comes from the app's own bundle, after hydration, and nothing from any other host", async ({
    page,
  }) => {
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    // When the page hydrated: the fixture's marker is rendered by an effect, i.e. by the hydrated page.
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid="hydrated"]')) {
          (window as unknown as { hydratedAt: number }).hydratedAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    const response = await page.goto(app.url + "/fixtures/items/1");
    // The document names no feedback code: no <script> and no modulepreload of it.
    expect(await response!.text()).not.toContain("sentry-feedback");
    await waitForHydration(page);
    await expect(trigger(page)).toBeVisible();

    const chunks = requested.filter((url) => url.includes("sentry-feedback"));
    expect(chunks).toHaveLength(1);
    expect(new URL(chunks[0]!).origin).toBe(app.url);
    expect(new URL(chunks[0]!).pathname).toMatch(CHUNK);
    const timing = await page.evaluate(() => ({
      hydratedAt: (window as unknown as { hydratedAt?: number }).hydratedAt,
      chunkAt: performance
        .getEntriesByType("resource")
        .find((entry) => entry.name.includes("sentry-feedback"))?.startTime,
    }));
    expect(timing.hydratedAt).toBeDefined();
    expect(timing.chunkAt).toBeGreaterThan(timing.hydratedAt!);

    // Opening the form loads nothing more, from anywhere. The page load's transaction may leave
    // through the tunnel meanwhile (it ends when the page goes idle, later on a slow machine): a
    // send, not a load.
    const before = requested.length;
    await openForm(page);
    expect(requested.slice(before).filter((url) => url !== `${app.url}${TUNNEL}`)).toEqual([]);
    expect(requested.filter((url) => !url.startsWith(`${app.url}/`))).toEqual([]);
  });

  test("opening and using the widget breaks no Content Security Policy rule", async ({
    page,
    recorder,
    browserErrors,
  }) => {
    const since = fromNowOn(recorder);
    const violations: string[] = [];
    await page.exposeFunction("reportViolation", (what: string) => violations.push(what));
    await page.addInitScript(() =>
      document.addEventListener(
        "securitypolicyviolation",
        (event) =>
          void (window as unknown as { reportViolation(what: string): Promise<void> }).reportViolation(
            `${event.effectiveDirective} ${event.blockedURI}`,
          ),
        true,
      ),
    );
    await page.goto(app.url + "/fixtures/items/1");
    await waitForHydration(page);
    const { name, email, message, submit } = await openForm(page);
    // Its styles applied: the form is laid out by the widget's own stylesheet, not the browser's defaults.
    expect(await submit.evaluate((button) => getComputedStyle(button).cursor)).toBe("pointer");
    await submit.click();
    await name.fill("Grace Hopper");
    await email.fill("grace@example.com");
    await message.fill("CSP check");
    await submit.click();
    await expect(page.getByText(SUCCESS)).toBeVisible();
    await settledItems(recorder, since(isFeedback), 1);
    expect(browserErrors.filter(isCspViolation)).toEqual([]);
    expect(violations).toEqual([]);
    expect(recorder.items("csp_report").filter(since(() => true))).toEqual([]);
  });
});

test.describe("SENTRY_FEEDBACK=off (the default)", () => {
  test("no widget code is downloaded and no trigger appears", async ({ page, app }) => {
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    for (const pathname of ["/", "/no-such-page", "/fixtures/loader-error"]) {
      await page.goto(app.url + pathname);
      // The deferred chunks load together once the page is idle: with tracing running, the widget would have been asked for.
      await waitForTracing(page);
      expect(await hasIntegration(page, "Feedback"), pathname).toBe(false);
      await expect(page.locator("#sentry-feedback"), pathname).toHaveCount(0);
      await expect(trigger(page), pathname).toHaveCount(0);
    }
    expect(requested.some((url) => url.includes("sentry-tracing.client"))).toBe(true);
    expect(requested.filter((url) => url.includes("sentry-feedback"))).toEqual([]);
  });
});
