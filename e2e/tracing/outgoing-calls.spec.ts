/**
 * A loader's calls to other services, with `fetch` and with `node:http`
 * (docs/adding-a-route.md, "A loader that calls another service"). Two
 * services on 127.0.0.1: the team's own, on SENTRY_TRACE_PROPAGATION_TARGETS,
 * and a third party on another port, not on it.
 *  - traced: each call is an `http.client` span under its loader's span, and the
 *    team's service gets `sentry-trace`, `traceparent` and baggage naming that span;
 *  - untraced (a server at rate 0, or an upstream that decided no): the service
 *    gets the trace the page hands the browser, marked not sampled, so it does
 *    not decide again;
 *  - the third party gets none of the three, though its URL holds the team's.
 */
import { randomBytes } from "node:crypto";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import type { EnvelopeItem } from "../../test-support/sentry-recorder";
import {
  expect,
  isTransaction,
  opOf,
  parseSentryTrace,
  reportingTo,
  settledItems,
  test,
  traceIdOf,
} from "../support/spec-helpers";
import { baggageOf, receivedFor, startUpstream, type Upstream } from "../support/upstream";

test.use({ serverStarts: 3 }); // a traced and an untraced app calling the upstreams, one with the default targets

let upstream: Upstream | undefined;
let thirdParty: Upstream | undefined;
const servers: Record<"traced" | "untraced", AppServer | undefined> = {
  traced: undefined,
  untraced: undefined,
};

test.beforeAll(async ({ recorder }) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  [upstream, thirdParty] = await Promise.all([
    startUpstream((path) => ({ id: path.split("/").at(-1), name: "Lamp", inStock: 3 })),
    startUpstream(() => ({ sky: "clear" })),
  ]);
  const start = (rate: string) =>
    startApp({
      env: {
        ...reportingTo(recorder, rate),
        SENTRY_TRACE_PROPAGATION_TARGETS: upstream!.url,
        E2E_UPSTREAM_URL: upstream!.url,
        E2E_THIRD_PARTY_URL: thirdParty!.url,
      },
    });
  [servers.traced, servers.untraced] = await Promise.all([start("1"), start("0")]);
});
test.afterAll(async () => {
  await Promise.all([
    ...Object.values(servers).map((server) => server?.stop()),
    upstream?.close(),
    thirdParty?.close(),
  ]);
});

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** A page over plain HTTP, and the trace its meta tags hand the browser. */
async function pageTrace(server: AppServer, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers });
  expect(response.status).toBe(200);
  const html = await response.text();
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)"`).exec(html)?.[1];
  return { ...parseSentryTrace(meta("sentry-trace")), baggage: meta("baggage") };
}

type Span = {
  op?: string;
  description?: string;
  span_id: string;
  parent_span_id?: string;
  data?: Record<string, unknown>;
};
const spansOf = (item: EnvelopeItem) => (item.payload.spans ?? []) as Span[];
const serverTransactionOf = (traceId: string) => (item: EnvelopeItem) =>
  isTransaction(item) && opOf(item) === "http.server" && traceIdOf(item) === traceId;

const CALLS = [
  { client: "fetch", route: "/fixtures/catalog", servicePath: "/products" },
  { client: "node:http", route: "/fixtures/stock", servicePath: "/stock" },
] as const;

for (const { client, route, servicePath } of CALLS) {
  test(`${client}: a traced request's call is a span of its loader, and the team's service continues it`, async ({
    recorder,
  }) => {
    const id = hex(4);
    const trace = await pageTrace(servers.traced!, `${route}/${id}`);
    expect(trace.sampled).toBe("1");
    const headers = receivedFor(upstream!, `${servicePath}/${id}`);
    const [transaction] = await settledItems(recorder, serverTransactionOf(trace.traceId), 1);
    const spans = spansOf(transaction!);
    const calls = spans.filter((span) => span.op === "http.client");
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    // As docs/adding-a-route.md says it appears in Sentry.
    expect(call.description).toBe(`GET ${upstream!.url}${servicePath}/${id}`);
    expect(call.data?.["url.full"]).toBe(`${upstream!.url}${servicePath}/${id}`);
    expect(spans.find((span) => span.span_id === call.parent_span_id)?.op).toBe("loader.remix");
    expect(headers["sentry-trace"]).toBe(`${trace.traceId}-${call.span_id}-1`);
    expect(headers.traceparent).toBe(`00-${trace.traceId}-${call.span_id}-01`);
    expect(baggageOf(headers.baggage)).toEqual(baggageOf(trace.baggage));
    expect(baggageOf(headers.baggage)).toMatchObject({
      "sentry-trace_id": trace.traceId,
      "sentry-sampled": "true",
      "sentry-transaction": `GET ${route}/:id`,
    });
  });

  test(`${client}: an untraced request's call carries the browser's trace and the decision not to sample`, async ({
    recorder,
  }) => {
    const upstreamDecidedNo = { "sentry-trace": `${hex(16)}-${hex(8)}-0` };
    const traceIds = new Set<string>();
    for (const [server, incoming] of [
      [servers.untraced!, {}],
      [servers.traced!, upstreamDecidedNo],
    ] as const) {
      const id = hex(4);
      const trace = await pageTrace(server, `${route}/${id}`, incoming);
      expect(trace.sampled).toBe("0");
      traceIds.add(trace.traceId);
      const headers = receivedFor(upstream!, `${servicePath}/${id}`);
      expect(parseSentryTrace(headers["sentry-trace"] as string)).toMatchObject({
        traceId: trace.traceId,
        sampled: "0",
      });
      expect(headers.traceparent).toMatch(new RegExp(`^00-${trace.traceId}-[0-9a-f]{16}-00$`));
      expect(baggageOf(headers.baggage)).toEqual(baggageOf(trace.baggage));
      expect(baggageOf(headers.baggage)).toMatchObject({
        "sentry-trace_id": trace.traceId,
        "sentry-sampled": "false",
      });
    }
    expect(traceIds).toContain(upstreamDecidedNo["sentry-trace"].slice(0, 32));
    expect(traceIds.size).toBe(2);
    const sent = await settledItems(
      recorder,
      (item) => isTransaction(item) && traceIds.has(traceIdOf(item) ?? ""),
      0,
    );
    expect(sent).toHaveLength(0);
  });
}

test("a third party gets no trace headers, from a traced or an untraced request, yet its calls are spans", async ({
  recorder,
}) => {
  for (const mode of ["traced", "untraced"] as const) {
    const city = hex(4);
    const trace = await pageTrace(servers[mode]!, `/fixtures/weather?city=${city}`);
    const calls = thirdParty!
      .received()
      .filter((request) => request.path.startsWith(`/forecast?city=${city}&`));
    expect(calls, "one call with fetch, one with node:http").toHaveLength(2);
    for (const { headers } of calls) {
      expect(
        Object.keys(headers).filter((name) => /^(sentry-trace|baggage|traceparent)$/.test(name)),
      ).toEqual([]);
    }
    if (mode === "untraced") continue;
    const [transaction] = await settledItems(recorder, serverTransactionOf(trace.traceId), 1);
    const spans = spansOf(transaction!).filter((span) => span.op === "http.client");
    expect(
      spans.map((span) => String(span.data?.["url.full"]).startsWith(`${thirdParty!.url}/forecast?`)),
    ).toEqual([true, true]);
  }
});

test("the default targets, with PORT=0: a loader's call to the app itself continues its trace", async ({
  recorder,
}) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS + 30_000);
  // No SENTRY_TRACE_PROPAGATION_TARGETS: the app's own origins, once it listens on the port it got.
  const server = await startApp({
    env: { ...reportingTo(recorder), PORT: "0" },
  });
  try {
    const traceId = hex(16);
    const response = await fetch(`${server.url}/fixtures/own-call`, {
      headers: { "sentry-trace": `${traceId}-${hex(8)}-1` },
    });
    expect(await response.text()).toBe("200");
    const transactions = await settledItems(recorder, serverTransactionOf(traceId), 2);
    const caller = transactions.find((item) => item.payload.transaction === "GET /fixtures/own-call");
    const callee = transactions.find((item) => item.payload.transaction === "GET /fixtures/items/:id");
    const call = spansOf(caller!).find((span) => span.op === "http.client");
    expect(call?.description).toBe(`GET ${server.url}/fixtures/items/9.data`);
    expect(callee?.payload.contexts.trace.parent_span_id).toBe(call!.span_id);
  } finally {
    await server.stop();
  }
});
