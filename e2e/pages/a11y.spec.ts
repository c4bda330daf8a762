/**
 * Accessibility (axe-core, WCAG rules and best practices as axe ships them):
 * the start page, the 404 page, both error pages and the fixture form in its
 * error state have no violations.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  CLIENT_ERROR_HEADING,
  expect,
  SERVER_ERROR_HEADING,
  test,
  waitForHydration,
} from "../support/spec-helpers";

/** axe's violations on the page as it is now, in a form that reads well in a failure message. */
async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(({ id, impact, help, nodes }) => ({
    id,
    impact,
    help,
    targets: nodes.map((node) => node.target.join(" ")),
  }));
}

test("start page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Remix + Sentry scaffold");
  expect(await violations(page)).toEqual([]);
});

test("404 page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("404");
  expect(await violations(page)).toEqual([]);
});

test("server error page", async ({ page }) => {
  await page.goto("/fixtures/loader-error");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_HEADING);
  expect(await violations(page)).toEqual([]);
});

test("client error page", async ({ page }) => {
  await page.goto("/fixtures/client-render-error");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(CLIENT_ERROR_HEADING);
  expect(await violations(page)).toEqual([]);
});

/** Submits the fixture form with a name but a malformed email, and waits for both errors. */
async function submitInvalidForm(page: Page) {
  await page.getByLabel("Email", { exact: true }).fill("not an email");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
}

test("fixture form with errors, with JavaScript", async ({ page }) => {
  await page.goto("/fixtures/form");
  await waitForHydration(page);
  await submitInvalidForm(page);
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
  expect(await violations(page)).toEqual([]);
});

test("fixture form with errors, as served without JavaScript", async ({ page }) => {
  // axe needs JavaScript in the page, so the app's scripts are blocked instead:
  // the page never hydrates, the form posts natively and the server renders the answer.
  await page.route(/\.js(\?.*)?$/, (route) => route.abort());
  await page.goto("/fixtures/form");
  await submitInvalidForm(page);
  await expect(page.getByTestId("hydrated")).toHaveCount(0);
  expect(await violations(page)).toEqual([]);
});
