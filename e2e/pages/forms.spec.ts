/**
 * The validated form-action pattern (docs/adding-a-route.md) end to end, on
 * the fixture form (`e2e/fixtures/routes/form.tsx`: required, email shape,
 * max length), with and without JavaScript: errors next to their fields,
 * input kept, focus on the first invalid field, POST/redirect/GET on success,
 * validation failures kept out of Sentry and the error log, and unexpected
 * errors still reported with a digest.
 */
import { request as httpRequest } from "node:http";
import type { Page, Response } from "@playwright/test";
import type { AppServer } from "../../test-support/app-server";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import {
  digestOnPage,
  expect,
  isErrorEvent,
  SERVER_ERROR_HEADING,
  test,
  waitForHydration,
} from "../support/spec-helpers";

const NAME_REQUIRED = "Enter your name.";
const NAME_TOO_LONG = "Enter a name of at most 40 characters.";
const EMAIL_REQUIRED = "Enter your email address.";
const EMAIL_SHAPE = "Enter an email address in the correct format, like name@example.com.";

/** Values no other test sends, so the recorder and the logs can be searched for them. */
function uniqueValues() {
  const run = crypto.randomUUID().slice(0, 8);
  return { run, longName: `Zebulon ${run} `.padEnd(41, "q"), badEmail: `quux-${run}-at-example.com` };
}

/** Opens the fixture form (with `search`), ready to use with or without JavaScript. */
async function openForm(page: Page, javaScriptEnabled: boolean, search = "") {
  const response = await page.goto(`/fixtures/form${search}`);
  expect(response?.status()).toBe(200);
  if (javaScriptEnabled) await waitForHydration(page);
}

/** Submits the form and returns the answer to the POST (a `.data` request with JavaScript). */
async function submit(page: Page): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/fixtures/form")),
    page.getByRole("button", { name: "Send" }).click(),
  ]);
  return response;
}

/** The field's input is invalid, described by its message, and the message shows. */
async function expectFieldError(page: Page, label: string, message: string) {
  const input = page.getByLabel(label, { exact: true });
  await expect(input).toHaveAttribute("aria-invalid", "true");
  await expect(input).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
  await expect(page.getByText(message, { exact: true })).toBeVisible();
}

async function expectFieldValid(page: Page, label: string) {
  const input = page.getByLabel(label, { exact: true });
  await expect(input).not.toHaveAttribute("aria-invalid");
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The URL a server transaction was for (`url.full` since @sentry/node 11, `http.url` before). */
const urlOf = (item: EnvelopeItem) => {
  const data = item.payload.contexts?.trace?.data as Record<string, unknown> | undefined;
  return String(data?.["url.full"] ?? data?.["http.url"]);
};

/** The server transaction `POST /fixtures/form` whose URL carried `run`, with its action span. */
async function actionTransaction(recorder: Recorder, run: string) {
  const transaction = await recorder.waitForItem(
    (item) =>
      item.type === "transaction" &&
      item.payload.transaction === "POST /fixtures/form" &&
      urlOf(item).includes(run),
  );
  const spans = (transaction.payload.spans ?? []) as { op?: string; data?: Record<string, unknown> }[];
  const action = spans.find((span) => span.op === "action.remix");
  return { transaction, action };
}

/** Error events of the transaction's trace. */
function errorEventsOf(recorder: Recorder, transaction: EnvelopeItem) {
  const traceId = transaction.payload.contexts.trace.trace_id as string;
  return recorder
    .items()
    .filter((item) => isErrorEvent(item) && item.payload.contexts?.trace?.trace_id === traceId);
}

function errorLogLines(app: AppServer, from: number) {
  return app
    .logLines()
    .slice(from)
    .filter((line) => line.level === "error" || line.level === "fatal" || line.level === "warn");
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("an empty submission shows each required message next to its field", async ({ page }) => {
      await openForm(page, javaScriptEnabled);
      const response = await submit(page);
      expect(response.status()).toBe(400);
      await expectFieldError(page, "Name", NAME_REQUIRED);
      await expectFieldError(page, "Email", EMAIL_REQUIRED);
      await expect(page).toHaveURL(/\/fixtures\/form$/);
    });

    test("invalid input is kept, with a message per broken rule", async ({ page }) => {
      const { longName, badEmail } = uniqueValues();
      await openForm(page, javaScriptEnabled);
      await page.getByLabel("Name", { exact: true }).fill(longName);
      await page.getByLabel("Email", { exact: true }).fill(badEmail);
      expect((await submit(page)).status()).toBe(400);
      await expectFieldError(page, "Name", NAME_TOO_LONG);
      await expectFieldError(page, "Email", EMAIL_SHAPE);
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue(longName);
      await expect(page.getByLabel("Email", { exact: true })).toHaveValue(badEmail);

      // Fixing one field clears its message and keeps the other's.
      await page.getByLabel("Name", { exact: true }).fill("Ada");
      expect((await submit(page)).status()).toBe(400);
      await expectFieldValid(page, "Name");
      await expectFieldError(page, "Email", EMAIL_SHAPE);
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Ada");
      await expect(page.getByLabel("Email", { exact: true })).toHaveValue(badEmail);
    });

    test("a valid submission redirects to a page that is safe to reload (POST/redirect/GET)", async ({
      page,
    }) => {
      await openForm(page, javaScriptEnabled);
      await page.getByLabel("Name", { exact: true }).fill("Ada");
      await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
      const response = await submit(page);
      // Without JavaScript the browser follows a real redirect; with it, single fetch
      // answers the `.data` POST with the redirect encoded for the client router.
      if (!javaScriptEnabled) expect(response.status()).toBe(302);
      await expect(page).toHaveURL(/\/fixtures\/form\/done$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Form sent");
      const reload = await page.reload();
      expect(reload?.request().method()).toBe("GET");
      expect(reload?.status()).toBe(200);
    });

    test("a validation failure sends no Sentry event and logs no error; the action span says why", async ({
      page,
      recorder,
      app,
    }) => {
      const { run, longName, badEmail } = uniqueValues();
      const logsBefore = app.logLines().length;
      await openForm(page, javaScriptEnabled, `?run=${run}`);
      await page.getByLabel("Name", { exact: true }).fill(longName);
      await page.getByLabel("Email", { exact: true }).fill(badEmail);
      expect((await submit(page)).status()).toBe(400);
      await expectFieldError(page, "Email", EMAIL_SHAPE);

      // The transaction ends after the response; an error event of the request would be sent before it.
      const { transaction, action } = await actionTransaction(recorder, run);
      expect(action?.data).toMatchObject({
        "form.outcome": "invalid",
        "form.invalid_fields": "email,name",
      });
      expect(errorEventsOf(recorder, transaction)).toEqual([]);
      // Nor did the browser report anything from the page.
      expect(
        recorder.items("event").filter((item) => String(item.payload.request?.url).includes(run)),
      ).toEqual([]);
      expect(errorLogLines(app, logsBefore)).toEqual([]);
      // No submitted value is anywhere in what reached Sentry, or in the logs.
      for (const envelope of recorder.envelopes) {
        const body = envelope.rawBody.toString("utf8");
        expect(body).not.toContain(badEmail);
        expect(body).not.toContain(longName.trim());
      }
      expect(app.output()).not.toContain(badEmail);
    });

    test("an action that throws after validation still shows a digest and reports it once", async ({
      page,
      recorder,
      app,
    }) => {
      await openForm(page, javaScriptEnabled, "?throw");
      await page.getByLabel("Name", { exact: true }).fill("Ada");
      await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
      expect((await submit(page)).status()).toBe(500);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_HEADING);
      const digest = await digestOnPage(page);
      const line = await app.waitForLog((entry) => entry.digest === digest);
      expect(line).toMatchObject({ level: "error", method: "POST", route: "/fixtures/form" });
      const event = await recorder.waitForItem(
        (item) => isErrorEvent(item) && item.payload.tags?.digest === digest,
      );
      expect(event.payload.exception.values.at(-1).value).toContain("form action failed after validation");
      expect(
        recorder.items().filter((item) => isErrorEvent(item) && item.payload.tags?.digest === digest),
      ).toHaveLength(1);
    });

    test("a body over the size limit shows the 413 page, not a fault", async ({ page, recorder, app }) => {
      const { run } = uniqueValues();
      const logsBefore = app.logLines().length;
      await openForm(page, javaScriptEnabled, `?run=${run}`);
      await page.getByLabel("Name", { exact: true }).fill("x".repeat(110 * 1024));
      await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
      expect((await submit(page)).status()).toBe(413);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("413");
      await expect(page.getByText("The request is too large.")).toBeVisible();
      const { transaction, action } = await actionTransaction(recorder, run);
      expect(action?.data).toMatchObject({ "form.outcome": "too_large" });
      expect(errorEventsOf(recorder, transaction)).toEqual([]);
      expect(errorLogLines(app, logsBefore)).toEqual([]);
    });
  });
}

test.describe("focus after a failed submission with JavaScript", () => {
  test("moves to the first invalid field, every time", async ({ page }) => {
    await openForm(page, true);
    await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
    await submit(page);
    await expectFieldError(page, "Name", NAME_REQUIRED);
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();

    await page.getByLabel("Name", { exact: true }).fill("Ada");
    await page.getByLabel("Email", { exact: true }).fill("not an email");
    await page.getByLabel("Name", { exact: true }).focus();
    await submit(page);
    await expectFieldError(page, "Email", EMAIL_SHAPE);
    await expect(page.getByLabel("Email", { exact: true })).toBeFocused();
  });

  test("stays put on the first visit (no failed submission yet)", async ({ page }) => {
    await openForm(page, true);
    await expect(page.getByLabel("Name", { exact: true })).not.toBeFocused();
  });
});

test.describe("requests no form of ours sends are refused with a 4xx, not reported", () => {
  /** Posts `body` as it is, optionally chunked (no Content-Length), and resolves with the status. */
  function rawPost(
    port: number,
    path: string,
    body: Buffer,
    headers: Record<string, string>,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path, headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      // Sent in pieces, so a body without Content-Length goes out chunked.
      for (let offset = 0; offset < body.length; offset += 16 * 1024) {
        req.write(body.subarray(offset, offset + 16 * 1024));
      }
      req.end();
    });
  }

  test("oversize (declared and chunked), wrong content type, malformed, duplicate field", async ({
    request,
    recorder,
    app,
  }) => {
    const { run } = uniqueValues();
    const logsBefore = app.logLines().length;
    const path = `/fixtures/form?run=${run}`;
    const form = "application/x-www-form-urlencoded";
    const big = Buffer.from("name=" + "x".repeat(150 * 1024));

    const declared = await request.post(path, { data: big, headers: { "Content-Type": form } });
    expect(declared.status()).toBe(413);
    expect(await declared.text()).toContain("The request is too large.");
    expect(await rawPost(app.port, path, big, { "Content-Type": form, "Transfer-Encoding": "chunked" })).toBe(
      413,
    );
    expect(
      await rawPost(app.port, path.replace("form", "form.data"), big, {
        "Content-Type": form,
        "Transfer-Encoding": "chunked",
      }),
    ).toBe(413);

    const json = await request.post(path, { data: { name: "Ada" } });
    expect(json.status()).toBe(415);
    const malformed = await request.post(path, {
      data: "--x\r\nnot a part",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(malformed.status()).toBe(400);
    const twice = await request.post(path, {
      data: "name=Ada&name=Eve&email=ada%40example.com",
      headers: { "Content-Type": form },
    });
    expect(twice.status()).toBe(400);
    expect(await twice.text()).toContain("The request could not be understood.");

    // Multipart is read too: a valid multipart submission redirects.
    const multipart = await request.post(path, {
      multipart: { name: "Ada", email: "ada@example.com" },
      maxRedirects: 0,
    });
    expect(multipart.status()).toBe(302);
    expect(multipart.headers()["location"]).toBe("/fixtures/form/done");

    // Seven requests, seven transactions: none with an error event, no error log line.
    const transactions = await recorder.waitForItems(
      (item) =>
        item.type === "transaction" &&
        item.payload.transaction === "POST /fixtures/form" &&
        urlOf(item).includes(run),
      { count: 7 },
    );
    for (const transaction of transactions) expect(errorEventsOf(recorder, transaction)).toEqual([]);
    expect(errorLogLines(app, logsBefore)).toEqual([]);
    // The server keeps serving.
    expect((await request.get("/fixtures/form")).status()).toBe(200);
  });
});
