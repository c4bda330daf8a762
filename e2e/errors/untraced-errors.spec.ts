/**
 * An error in a request that is not traced (nine in ten at the default rate)
 * never went through the SDK's per-request machinery
 * (app/monitoring/request-trace.server.ts), yet its event must carry what a
 * traced request's does: digest and request id, the transaction named by
 * route pattern, the request as the client sent it (method, URL, allowed
 * headers, no cookies), the trace the page hands to the browser, and that
 * request's breadcrumbs, no other's. The same failures, sent to a server
 * tracing everything and to one tracing nothing, give the same events.
 */
import { randomUUID } from "node:crypto";
import type { AppServer } from "../../test-support/app-server";
import { digestInHtml } from "../../test-support/error-digest";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import { DIGEST_HEADER } from "~/errors/digest";
import { expect, isErrorEvent, parseSentryTrace, settledItems, test } from "../support/spec-helpers";
import { TRACE_MODES, tracedAndUntracedApps } from "../support/traced-and-untraced";

test.use({ serverStarts: 2 }); // a traced and an untraced app

const servers = tracedAndUntracedApps();

/** A failing request: its digest, the trace id the response hands on, and the event that reached the recorder. */
async function failure(recorder: Recorder, server: AppServer, target: string) {
  const response = await fetch(`${server.url}${target}`, {
    headers: { Cookie: `theme=${randomUUID()}`, "Accept-Language": "fr" },
  });
  expect(response.status).toBe(500);
  const requestId = response.headers.get("x-request-id");
  const digest = response.headers.get(DIGEST_HEADER) ?? digestInHtml(await response.text());
  expect(digest).toBeTruthy();
  const timing = /sentry-trace;desc="([^"]+)"/.exec(response.headers.get("server-timing") ?? "")?.[1];
  const [event] = await settledItems(
    recorder,
    (item) => isErrorEvent(item) && item.payload.tags?.digest === digest,
    1,
  );
  return { requestId, pageTrace: timing ? parseSentryTrace(timing) : undefined, event: event! };
}

/** What an event says about its request, with the per-request values replaced by how they relate. */
function context(
  { requestId, pageTrace, event }: Awaited<ReturnType<typeof failure>>,
  server: AppServer,
): Record<string, unknown> {
  const payload = (event as EnvelopeItem).payload;
  const request = payload.request ?? {};
  return {
    requestIdTag: payload.tags?.request_id === requestId,
    transaction: payload.transaction,
    exception: payload.exception?.values?.map((value: { type: string; value: string }) => [
      value.type,
      value.value,
    ]),
    mechanism: payload.exception?.values?.at(-1)?.mechanism,
    method: request.method,
    url: request.url?.replace(server.url, ""),
    headers: Object.keys(request.headers ?? {}).sort(),
    cookies: request.cookies,
    sameTraceAsPage:
      pageTrace === undefined ? "no page trace" : payload.contexts?.trace?.trace_id === pageTrace.traceId,
    breadcrumbs: (payload.breadcrumbs ?? [])
      .map((crumb: { message?: string }) => crumb.message)
      .filter((message: string | undefined) => message?.startsWith("Fixture: server breadcrumb")),
    environment: payload.environment,
    level: payload.level,
  };
}

for (const target of ["/fixtures/breadcrumbs?count=3", "/fixtures/breadcrumbs.data?count=3"]) {
  test(`${target}: an untraced request's error event carries what a traced one's does`, async ({
    recorder,
  }) => {
    const seen: Record<string, Record<string, unknown>> = {};
    for (const mode of TRACE_MODES) {
      const server = servers[mode]!;
      // An earlier failure on the same server: its breadcrumbs must not reach the next event.
      await failure(recorder, server, "/fixtures/breadcrumbs?count=2");
      seen[mode] = context(await failure(recorder, server, target), server);
    }
    expect(seen.untraced!.breadcrumbs).toEqual([
      "Fixture: server breadcrumb 0",
      "Fixture: server breadcrumb 1",
      "Fixture: server breadcrumb 2",
    ]);
    expect(seen.untraced!.requestIdTag).toBe(true);
    expect(seen.untraced).toEqual(seen.traced);
  });
}
