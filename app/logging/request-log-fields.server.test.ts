import type http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { forgetServerSdk, loadServerSdk } from "~/monitoring/server-sdk.server";
import { runInRequestScope } from "~/request-scope.server";
import { readActiveSpanIdWith, requestLogFields } from "./request-log-fields.server";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const incoming = { headers: {} } as unknown as http.IncomingMessage;

afterAll(() => forgetServerSdk());

describe("requestLogFields", () => {
  it("is empty outside a request", () => {
    expect(requestLogFields()).toEqual({});
  });

  it("names the request alone when Sentry is off (no trace was decided)", () => {
    const fields = runInRequestScope("/", requestLogFields, { incoming });
    expect(fields).toEqual({ requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it("names an untraced request's trace, and no span", () => {
    const fields = runInRequestScope("/", requestLogFields, {
      incoming,
      trace: { traceId: TRACE_ID, traced: false },
    });
    expect(fields).toEqual({ requestId: expect.any(String), trace_id: TRACE_ID });
  });

  it("names a traced request's active span, read when the line is written", async () => {
    const sdk = await loadServerSdk();
    sdk.node.init({ tracesSampleRate: 1, defaultIntegrations: false });
    readActiveSpanIdWith(() => sdk.node.getActiveSpan()?.spanContext().spanId);
    const trace = { traceId: TRACE_ID, traced: true };
    const seen = runInRequestScope(
      "/",
      () =>
        sdk.node.startSpan({ name: "request" }, (request) => {
          const inRequest = requestLogFields();
          const inLoader = sdk.node.startSpan({ name: "loader" }, (loader) => ({
            fields: requestLogFields(),
            spanId: loader.spanContext().spanId,
          }));
          return { inRequest, inLoader, requestSpanId: request.spanContext().spanId };
        }),
      { incoming, trace },
    );
    expect(seen.inRequest).toMatchObject({ trace_id: TRACE_ID, span_id: seen.requestSpanId });
    expect(seen.inLoader.fields).toMatchObject({ trace_id: TRACE_ID, span_id: seen.inLoader.spanId });
    expect(seen.inLoader.spanId).not.toBe(seen.requestSpanId);
    // After the span ended, a line of the same request still names its trace.
    expect(runInRequestScope("/", requestLogFields, { incoming, trace })).toEqual({
      requestId: expect.any(String),
      trace_id: TRACE_ID,
    });
  });
});
