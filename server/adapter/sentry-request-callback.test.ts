/**
 * The assumption app/monitoring/request-spans.server.ts makes of `httpIntegration({ ignoreIncomingRequests })`,
 * against the real SDK and a real server (docs/decisions/0053): the SDK calls it inside the request's
 * own isolation scope, after it continued the incoming trace and before any span exists, and the span
 * it then creates takes the trace the callback left on the scope. If the order changes, the app's
 * decision and the SDK's span would follow different traces.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTransport } from "@sentry/core";
import * as Sentry from "@sentry/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adviseOnFailure } from "../../test-support/guard-advice";

adviseOnFailure(
  "an update changed when @sentry/node calls ignoreIncomingRequests (docs/decisions/0053, 'When to revisit'); " +
    "read its server-subscription.js and adapt app/monitoring/request-spans.server.ts before upgrading.",
);

const DECIDED_TRACE = "d".repeat(32);
const INCOMING_TRACE = "a".repeat(32);
let server: http.Server;
let url: string;
let inCallback: { ownScope: boolean; traceId: string; span: boolean } | undefined;
let callbackScope: unknown;
let samplerScope: unknown;

beforeAll(async () => {
  const outside = Sentry.getIsolationScope();
  Sentry.init({
    dsn: "http://public@127.0.0.1:9/1",
    tracesSampler: () => {
      samplerScope = Sentry.getIsolationScope();
      return 1;
    },
    transport: (options) => createTransport(options, async () => ({})),
    integrations: [
      Sentry.httpIntegration({
        ignoreIncomingRequests: () => {
          const scope = Sentry.getCurrentScope();
          const context = scope.getPropagationContext();
          callbackScope = Sentry.getIsolationScope();
          inCallback = {
            ownScope: Sentry.getIsolationScope() !== outside,
            traceId: context.traceId,
            span: Sentry.getActiveSpan() !== undefined,
          };
          // What the app does for a request it traces: the trace it decided on.
          if (!context.parentSpanId) scope.setPropagationContext({ ...context, traceId: DECIDED_TRACE });
          return false;
        },
      }),
    ],
  });
  server = http.createServer((_request, response) => {
    response.end(Sentry.getActiveSpan()?.spanContext().traceId ?? "no span");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await Sentry.close(0);
});

/** Through Node's own client, which the SDK's fetch instrumentation leaves alone. */
const get = (headers: Record<string, string> = {}) =>
  new Promise<string>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += String(chunk)));
        response.on("end", () => resolve(body));
      })
      .on("error", reject);
  });

describe("the SDK's ignoreIncomingRequests callback", () => {
  it("runs in the request's scope before its span, which takes the trace the callback set", async () => {
    const spanTrace = await Sentry.suppressTracing(() => get());
    expect(inCallback).toEqual({
      ownScope: true,
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      span: false,
    });
    expect(spanTrace).toBe(DECIDED_TRACE);
  });

  it("is followed by the sampler in the same isolation scope, where it can leave the request's rate", async () => {
    samplerScope = undefined;
    await Sentry.suppressTracing(() => get());
    expect(samplerScope).toBeDefined();
    expect(samplerScope).toBe(callbackScope);
  });

  it("sees a continued trace already on the scope", async () => {
    const spanTrace = await Sentry.suppressTracing(() =>
      get({ "sentry-trace": `${INCOMING_TRACE}-${"b".repeat(16)}-1` }),
    );
    expect(inCallback).toEqual({ ownScope: true, traceId: INCOMING_TRACE, span: false });
    expect(spanTrace).toBe(INCOMING_TRACE);
  });
});
