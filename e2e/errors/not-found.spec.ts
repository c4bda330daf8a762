/**
 * The catch-all route (app/routes/$.tsx): every unknown path answers 404 with
 * the not-found page, for every method and request kind; never 405 or 500.
 */
import { expect, test, waitForHydration } from "../support/spec-helpers";

const NOT_FOUND_TEXT = "This page could not be found.";

test.describe("unknown paths answer 404", () => {
  test("document GET shows the not-found page", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404");
    await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();
  });

  test("HEAD answers 404 without a body", async ({ request }) => {
    const response = await request.head("/no/such/page");
    expect(response.status()).toBe(404);
    expect(await response.body()).toHaveLength(0);
  });

  test("form-encoded POST answers 404 with the not-found page", async ({ request }) => {
    const response = await request.post("/no/such/page", { form: { field: "value" } });
    expect(response.status()).toBe(404);
    expect(await response.text()).toContain(NOT_FOUND_TEXT);
  });

  test("multipart POST answers 404", async ({ request }) => {
    const response = await request.post("/no/such/page", {
      multipart: {
        field: "value",
        file: { name: "a.txt", mimeType: "text/plain", buffer: Buffer.from("hi") },
      },
    });
    expect(response.status()).toBe(404);
  });

  test("PUT, PATCH and DELETE answer 404, not 405", async ({ request }) => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const response = await request.fetch("/no/such/page", { method, data: "x" });
      expect(response.status(), method).toBe(404);
    }
  });

  test("single-fetch .data requests answer 404", async ({ request }) => {
    const get = await request.get("/no/such/page.data?_routes=routes%2F%24");
    expect(get.status()).toBe(404);
    const post = await request.post("/no/such/page.data", { form: { a: "b" } });
    expect(post.status()).toBe(404);
  });

  // React Router 8 keeps a trailing slash in single fetches (`/a/_.data` loads `/a/`).
  test("a trailing slash changes nothing: the page and its single fetch answer 404", async ({ request }) => {
    expect((await request.get("/no/such/page/")).status()).toBe(404);
    expect((await request.get("/no/such/page/_.data?_routes=routes%2F%24")).status()).toBe(404);
    expect((await request.post("/no/such/page/_.data", { form: { a: "b" } })).status()).toBe(404);
  });

  test("a client navigation to an unknown path shows the not-found page", async ({ page }) => {
    await page.goto("/fixtures/items/1");
    await waitForHydration(page);
    const dataRequest = page.waitForResponse((response) => response.url().includes("/fixtures/missing-page"));
    await page.getByRole("link", { name: "A missing page" }).click();
    expect((await dataRequest).status()).toBe(404);
    await expect(page).toHaveURL(/\/fixtures\/missing-page$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404");
    await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();
  });

  test("a form post from the not-found page without JavaScript answers 404", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/no/such/page");
    await page.evaluate(() => {
      const form = document.createElement("form");
      form.method = "post";
      form.innerHTML = '<input name="q" value="1"><button>Go</button>';
      document.body.append(form);
    });
    const [response] = await Promise.all([
      page.waitForResponse(/no\/such\/page/),
      page.getByRole("button", { name: "Go" }).click(),
    ]);
    expect(response.status()).toBe(404);
    await context.close();
  });

  test("script in the path is escaped, not run", async ({ page }) => {
    let dialogs = 0;
    page.on("dialog", async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    const response = await page.goto(
      "/%3Cscript%3Ealert(1)%3C%2Fscript%3E/%22%3E%3Cimg%20src=x%20onerror=alert(2)%3E",
    );
    expect(response?.status()).toBe(404);
    expect(await page.content()).not.toMatch(/<script>alert|<img src="?x/);
    expect(dialogs).toBe(0);
  });

  test("no 404 is logged as an error", async ({ request, app }) => {
    const before = app.logLines().length;
    await request.get("/no/such/page-for-logs");
    await request.post("/no/such/page-for-logs.data", { form: { a: "b" } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      app
        .logLines()
        .slice(before)
        .filter((line) => line.level === "error"),
    ).toEqual([]);
  });
});
