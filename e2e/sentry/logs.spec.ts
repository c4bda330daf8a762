/**
 * Sentry logs (`SENTRY_LOGS_LEVEL=info`), with the real SDK against the recorder:
 * a line the logger writes while a request is handled reaches Sentry as a `log`
 * record in that request's trace, traced or not, scrubbed as events are; its
 * access line never. Off (every other spec's server), no log item is sent at all
 * (e2e/sentry/privacy.spec.ts).
 */
import { randomBytes } from "node:crypto";
import type { AppServer } from "../../test-support/app-server";
import { logRecords, type LogRecord } from "../../test-support/sentry-recorder";
import { expect, isErrorEvent, newTrace, settledItems, test, traceIdOf } from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // its appEnv

test.use({ appEnv: { SENTRY_LOGS_LEVEL: "info" } });

async function failingRequest(app: AppServer, sentryTrace: string): Promise<void> {
  const response = await fetch(`${app.url}/fixtures/private-failure?as=message`, {
    headers: { "sentry-trace": sentryTrace },
  });
  expect(response.status).toBe(500);
  await response.body?.cancel();
}

const errorLineOf = (records: LogRecord[], traceId: string) =>
  records.find((record) => record.trace_id === traceId && record.body === "unexpected server error");

for (const sampled of ["1", "0"] as const) {
  test(`the error line of a ${sampled === "1" ? "traced" : "untraced"} request is a log in its trace`, async ({
    app,
    recorder,
  }) => {
    const { traceId } = newTrace();
    await failingRequest(app, `${traceId}-${randomBytes(8).toString("hex")}-${sampled}`);
    await recorder.waitForItem((item) => errorLineOf(logRecords([item]), traceId) !== undefined);
    const record = errorLineOf(logRecords(recorder.items("log")), traceId)!;
    // This request's own line: the one with its digest.
    const line = await app.waitForLog(
      (entry) => entry.msg === "unexpected server error" && entry.digest === record.attributes.digest,
    );
    expect(record.level).toBe("error");
    expect(record.attributes).toMatchObject({
      route: "/fixtures/private-failure",
      path: "/fixtures/private-failure",
    });
    expect(JSON.stringify(record.attributes)).toContain(
      "Charge failed: token [token], [email], card [number]",
    );
    expect(record.attributes).not.toHaveProperty("client");
    // The same trace as the request's error event.
    const [event] = await settledItems(
      recorder,
      (item) => isErrorEvent(item) && item.payload.tags?.digest === record.attributes.digest,
      1,
    );
    expect(traceIdOf(event!)).toBe(traceId);
    expect(line.level).toBe("error");
  });
}

test("a request's access line, which the server writes, is never sent", async ({ app, recorder }) => {
  const { traceId, headers } = newTrace();
  const response = await fetch(`${app.url}/fixtures/items/1`, { headers });
  expect(response.status).toBe(200);
  await response.body?.cancel();
  const requestId = response.headers.get("x-request-id");
  // A line of the same request the logger writes, sent: the access line was written before it.
  const refused = await fetch(`${app.url}/fixtures/items/1`, { method: "PUT", headers });
  expect(refused.status).toBe(405);
  await recorder.waitForItem((item) =>
    logRecords([item]).some((record) => record.trace_id === traceId && record.body === "request refused"),
  );
  await app.waitForLog((entry) => entry.msg === "request" && entry.requestId === requestId);
  const sent = logRecords(recorder.items("log")).filter(
    (record) => record.attributes.requestId === requestId || record.trace_id === traceId,
  );
  expect(sent.map((record) => record.body)).toEqual(["request refused"]);
});
