/**
 * Privacy, in real Chromium against the production build with the real SDKs
 * and the local recorder: two cookies (one named like a session, one not), an
 * `Authorization` header, a header of the app's own and a form field value,
 * each a unique secret, ride along with erroring requests
 * (document, single fetch, form post with and without JavaScript). Whatever
 * reaches the recorder holds none of them, no IP address and no cookies, and
 * no log items are sent (Sentry logs are off). What a team's code throws (a 5xx
 * Response, `json()`, a plain object, an Error whose message holds a token, an
 * e-mail address and a card number) is reported by its shape: none of its
 * private values reaches the recorder or a log line, nor, with Sentry logs on,
 * a log record (nor the cookies, headers and client address of the request).
 */
import { randomUUID } from "node:crypto";
import type { Page, Request } from "@playwright/test";
import { startApp } from "../../test-support/app-server";
import { logRecords, type Recorder } from "../../test-support/sentry-recorder";
import { PRIVATE_FAILURES, PRIVATE_VALUES } from "../fixtures/private-values";
import {
  clientNavigate,
  digestOnPage,
  exceptionValue,
  expect,
  isErrorEvent,
  isFormPostTo,
  isTransaction,
  opOf,
  parseSentryTrace,
  settledItems,
  test,
  traceIdOf,
  waitForTracing,
} from "../support/spec-helpers";

test.use({ serverStarts: 2 }); // its appEnv, and one its log test stops

const SECRETS = {
  cookie: `cookie-secret-${randomUUID()}`,
  // The SDK keeps a cookie whose name is not on its list of sensitive ones (session, token…).
  plainCookie: `plain-cookie-secret-${randomUUID()}`,
  header: `header-secret-${randomUUID()}`,
  authorization: `authorization-secret-${randomUUID()}`,
  field: `field-secret-${randomUUID()}`,
};

// Sent with every request of the page (the recorder's too, where only bodies are searched).
test.use({
  extraHTTPHeaders: { Authorization: `Bearer ${SECRETS.authorization}`, "X-Tenant": SECRETS.header },
});

test.beforeEach(async ({ context, app }) => {
  await context.addCookies([
    { name: "session", value: SECRETS.cookie, url: app.url },
    { name: "theme", value: SECRETS.plainCookie, url: app.url },
  ]);
});

/** The request really carried the cookie and the Authorization header. */
async function expectSecretsSent(request: Request): Promise<void> {
  const headers = await request.allHeaders();
  expect(headers.cookie).toContain(SECRETS.cookie);
  expect(headers.cookie).toContain(SECRETS.plainCookie);
  expect(headers["x-tenant"]).toBe(SECRETS.header);
  expect(headers.authorization).toBe(`Bearer ${SECRETS.authorization}`);
}

/** Posts the action fixture's form with the secret as the field value; resolves with the post. */
async function postSecretForm(page: Page, javaScriptEnabled: boolean): Promise<Request> {
  await page.goto("/fixtures/action-error");
  if (javaScriptEnabled) await waitForTracing(page);
  await page.getByLabel("Note").fill(SECRETS.field);
  const post = page.waitForRequest(isFormPostTo("/fixtures/action-error"));
  await page.getByRole("button", { name: "Send" }).click();
  const request = await post;
  expect(request.postData()).toContain(SECRETS.field);
  await expectSecretsSent(request);
  return request;
}

/**
 * Waits for the server's error event of each digest, then checks everything ever recorded; the
 * worker's recorder is shared, so "no log record" counts from `envelopesBefore`, the test's start.
 */
async function expectNothingSecretRecorded(
  recorder: Recorder,
  digests: string[],
  envelopesBefore: number,
): Promise<void> {
  const events = await settledItems(
    recorder,
    (item) => isErrorEvent(item) && digests.includes(item.payload.tags?.digest),
    digests.length,
  );
  expect(events).toHaveLength(digests.length);
  for (const event of events) {
    // The request is described (so the check below is not vacuous), minus the secrets.
    expect(event.payload.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/fixtures\//);
    expect(Object.keys(event.payload.request.headers).map((name) => name.toLowerCase())).toContain(
      "user-agent",
    );
    expect(event.payload.request).not.toHaveProperty("cookies");
    expect(event.payload.request).not.toHaveProperty("data");
  }

  expect(recorder.envelopes.length).toBeGreaterThan(0);
  for (const envelope of recorder.envelopes) {
    const body = envelope.rawBody.toString("utf8");
    for (const secret of Object.values(SECRETS)) expect(body).not.toContain(secret);
    expect(body).not.toContain('"ip_address"');
    expect(body).not.toContain('"cookies"');
  }
  const logItems = recorder.envelopes
    .slice(envelopesBefore)
    .flatMap((envelope) => envelope.items.filter((item) => item.type === "log"));
  expect(logItems).toEqual([]);
}

test.describe("with JavaScript", () => {
  test("a document request, a single fetch and a form post leak nothing", async ({ page, recorder }) => {
    const envelopesBefore = recorder.envelopes.length;
    const digests: string[] = [];

    // An erroring document request.
    const documentRequest = page.waitForRequest((request) => request.resourceType() === "document");
    await page.goto("/fixtures/loader-error");
    await expectSecretsSent(await documentRequest);
    digests.push(await digestOnPage(page));

    // An erroring single fetch.
    await page.goto("/fixtures/items/1");
    await waitForTracing(page);
    const dataRequest = page.waitForRequest((request) =>
      request.url().includes("/fixtures/loader-error.data"),
    );
    await clientNavigate(page, "/fixtures/loader-error");
    await expectSecretsSent(await dataRequest);
    digests.push(await digestOnPage(page));

    // An erroring form post (a single fetch POST) with the secret as a field value.
    const post = await postSecretForm(page, true);
    digests.push(await digestOnPage(page));

    // Transactions describe requests too: wait for the post's before checking.
    const { traceId } = parseSentryTrace(await post.headerValue("sentry-trace"));
    await recorder.waitForItem(
      (item) => isTransaction(item) && opOf(item) === "http.server" && traceIdOf(item) === traceId,
    );
    await expectNothingSecretRecorded(recorder, digests, envelopesBefore);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a document form post leaks nothing", async ({ page, recorder }) => {
    const envelopesBefore = recorder.envelopes.length;
    await postSecretForm(page, false);
    await expectNothingSecretRecorded(recorder, [await digestOnPage(page)], envelopesBefore);
  });
});

test.describe("what the app's code throws", () => {
  // The title each names the failure by: status, status text and keys, or type; never a value.
  const TITLES = {
    response: "500 Payment provider down, body with keys: card, customer, token",
    text: "502 Response, text/plain body",
    data: "500 Payment provider down, body with keys: card, name, street, token",
    object: /neither an Error nor a Response \(Object with keys: card, code, customer, token\)$/,
    message: "Charge failed: token [token], [email], card [number]",
  };

  test("a thrown Response, json(), object and Error message leak no private value", async ({
    page,
    recorder,
    app,
  }) => {
    // The worker's recorder and app are shared: other specs' envelopes (the feedback spec's "Ada Lovelace") are not this test's.
    const envelopesBefore = recorder.envelopes.length;
    const outputBefore = app.output().length;
    const digests = new Map<string, string>();
    for (const as of PRIVATE_FAILURES) {
      await page.goto(`/fixtures/private-failure?as=${as}`);
      digests.set(await digestOnPage(page), as);
    }
    const events = await settledItems(
      recorder,
      (item) => isErrorEvent(item) && digests.has(item.payload.tags?.digest),
      digests.size,
    );
    expect(events).toHaveLength(PRIVATE_FAILURES.length);
    for (const event of events) {
      const as = digests.get(event.payload.tags.digest) as keyof typeof TITLES;
      expect(exceptionValue(event)).toMatch(TITLES[as]);
      const line = await app.waitForLog((entry) => entry.digest === event.payload.tags.digest);
      expect((line.err as { message: string }).message).toBe(exceptionValue(event));
    }

    for (const envelope of recorder.envelopes.slice(envelopesBefore)) {
      const body = envelope.rawBody.toString("utf8");
      for (const value of Object.values(PRIVATE_VALUES)) expect(body).not.toContain(value);
      // JSON writes the street's apostrophe as is; a card number may lose its spaces.
      expect(body).not.toContain(PRIVATE_VALUES.card.replaceAll(" ", ""));
    }
    const output = app.output().slice(outputBefore);
    for (const value of Object.values(PRIVATE_VALUES)) expect(output).not.toContain(value);
    expect(output).not.toContain(PRIVATE_VALUES.card.replaceAll(" ", ""));
  });
});

test.describe("with Sentry logs on", () => {
  test("the log records of failing requests carry no private value, secret or client address", async ({
    recorder,
  }) => {
    const envelopesBefore = recorder.envelopes.length;
    const app = await startApp({
      env: { SENTRY_DSN: recorder.dsn(), SENTRY_TRACES_SAMPLE_RATE: "1", SENTRY_LOGS_LEVEL: "info" },
    });
    try {
      const headers = {
        cookie: `session=${SECRETS.cookie}; theme=${SECRETS.plainCookie}`,
        authorization: `Bearer ${SECRETS.authorization}`,
        "x-tenant": SECRETS.header,
      };
      const digests: string[] = [];
      for (const as of PRIVATE_FAILURES) {
        const response = await fetch(`${app.url}/fixtures/private-failure?as=${as}`, { headers });
        expect(response.status).toBeGreaterThanOrEqual(500);
        await response.body?.cancel();
        digests.push(
          (await app.waitForLog((line) => line.digest !== undefined && !digests.includes(line.digest)))
            .digest!,
        );
      }
      // Each failure's error line arrived as a log record (so the checks below are not vacuous).
      await recorder.waitForItems(
        (item) => logRecords([item]).some((record) => digests.includes(String(record.attributes.digest))),
        { count: 1 },
      );
      await expect
        .poll(
          () =>
            logRecords(recorder.items("log")).filter((r) => digests.includes(String(r.attributes.digest)))
              .length,
        )
        .toBe(digests.length);

      const logEnvelopes = recorder.envelopes
        .slice(envelopesBefore)
        .filter((envelope) => envelope.items.some((item) => item.type === "log"));
      expect(logEnvelopes.length).toBeGreaterThan(0);
      for (const envelope of logEnvelopes) {
        const body = envelope.rawBody.toString("utf8");
        for (const value of [...Object.values(PRIVATE_VALUES), ...Object.values(SECRETS)])
          expect(body).not.toContain(value);
        expect(body).not.toContain(PRIVATE_VALUES.card.replaceAll(" ", ""));
        expect(body).not.toContain("127.0.0.1");
        expect(body).not.toContain("?as=");
      }
    } finally {
      await app.stop();
    }
  });
});
