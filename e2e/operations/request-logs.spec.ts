/**
 * One request, joined up everywhere (docs/operating.md, "From a trace to its log lines"): every line
 * a request writes — the app's logger, `console.*`, raw stdout and stderr, a Node warning, the access
 * line — is JSON at its level and names the request (`requestId`) and its trace (`trace_id`): a traced
 * request's is its transaction's, which carries `request_id`, and lines written inside a span name it
 * (`span_id`); an untraced request's is the one its page hands the browser. Sentry off: the request
 * id alone. And every line the server writes, from start to shut-down, is one JSON line.
 */
import { ROOT_DATA_PATH } from "../../app/routing/data-url";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer, type LogLine } from "../../test-support/app-server";
import { rawHttp } from "../../test-support/raw-http";
import {
  expect,
  isTransaction,
  newTrace,
  opOf,
  parseSentryTrace,
  reportingTo,
  settledItems,
  test,
  traceIdOf,
} from "../support/spec-helpers";

test.use({ serverStarts: 3 }); // traced, untraced and Sentry off

type Kind = "traced" | "untraced" | "off";
const servers: Partial<Record<Kind, AppServer>> = {};

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ recorder }) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  const sentry = (rate: string) => reportingTo(recorder, rate);
  [servers.traced, servers.untraced, servers.off] = await Promise.all([
    startApp({ env: sentry("1") }),
    startApp({ env: sentry("0") }),
    startApp(),
  ]);
});
test.afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
});

/** What the fixture's loader writes, and at which level each line must arrive (the access line last). */
const WRITTEN = [
  { level: "info", msg: "Fixture: console.log" },
  { level: "info", msg: "Fixture: console.info" },
  { level: "warn", msg: "Fixture: console.warn" },
  { level: "error", msg: "Fixture: console.error" },
  { level: "info", msg: "Fixture: stdout.write" },
  { level: "error", msg: "Fixture: stderr.write" },
  { level: "warn", msg: expect.stringMatching(/\[DEP_FIXTURE\] DeprecationWarning: Fixture: an old API/) },
  { level: "info", msg: "Fixture: logger" },
  { level: "info", msg: "request" },
];

/** Requests the fixture route; its id, its page and every line it wrote (stdout and stderr arrive in any order). */
async function consoleOutput(app: AppServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}/fixtures/console-output`, { headers });
  expect(response.status).toBe(200);
  const requestId = response.headers.get("x-request-id")!;
  const html = await response.text();
  const ofRequest = (line: LogLine) => line.requestId === requestId;
  await app.waitForLog((line) => ofRequest(line) && line.msg === "request");
  const lines = app.logLines().filter(ofRequest);
  expect(lines).toHaveLength(WRITTEN.length);
  for (const written of WRITTEN) expect(lines).toContainEqual(expect.objectContaining(written));
  return { requestId, html, lines, loaderLines: lines.filter((line) => line.msg !== "request") };
}

const metaContent = (html: string, name: string) =>
  new RegExp(`<meta name="${name}" content="([^"]*)"`).exec(html)?.[1]?.replaceAll("&amp;", "&");

test("traced: the lines name the transaction's trace and its spans, and the transaction names the request", async ({
  recorder,
}) => {
  const { requestId, lines, loaderLines } = await consoleOutput(servers.traced!);
  const [transaction] = await settledItems(
    recorder,
    (item) =>
      isTransaction(item) && opOf(item) === "http.server" && item.payload.tags?.request_id === requestId,
    1,
  );
  const traceId = traceIdOf(transaction!);
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  for (const line of lines) expect(line.trace_id, line.msg).toBe(traceId);
  const payload = transaction!.payload as {
    contexts: { trace: { span_id: string } };
    spans?: { span_id: string }[];
  };
  const spanIds = [payload.contexts.trace.span_id, ...(payload.spans ?? []).map((span) => span.span_id)];
  // Written in the loader: inside the request's spans.
  for (const line of loaderLines) expect(spanIds, line.msg).toContain(line.span_id);
  for (const line of lines.filter((line) => line.span_id !== undefined))
    expect(spanIds).toContain(line.span_id);
});

test("traced, continuing a caller's trace: the lines name the caller's trace", async ({ recorder }) => {
  const { traceId, headers } = newTrace();
  const { requestId, lines } = await consoleOutput(servers.traced!, headers);
  const [transaction] = await settledItems(
    recorder,
    (item) => isTransaction(item) && item.payload.tags?.request_id === requestId,
    1,
  );
  expect(traceIdOf(transaction!)).toBe(traceId);
  for (const line of lines) expect(line.trace_id, line.msg).toBe(traceId);
});

test("untraced: the lines name the trace the page hands the browser, and no span", async ({ recorder }) => {
  const { requestId, html, lines } = await consoleOutput(servers.untraced!);
  const { traceId, sampled } = parseSentryTrace(metaContent(html, "sentry-trace"));
  expect(sampled).toBe("0");
  expect(metaContent(html, "baggage")).toContain(`sentry-trace_id=${traceId}`);
  for (const line of lines) {
    expect(line.trace_id, line.msg).toBe(traceId);
    expect(line).not.toHaveProperty("span_id");
  }
  const sent = await settledItems(recorder, (item) => item.payload?.tags?.request_id === requestId, 0);
  expect(sent).toEqual([]);
});

test("Sentry off: the lines name the request, and no trace is made up", async () => {
  const { html, lines } = await consoleOutput(servers.off!);
  expect(metaContent(html, "sentry-trace")).toBeUndefined();
  for (const line of lines) {
    expect(line).not.toHaveProperty("trace_id");
    expect(line).not.toHaveProperty("span_id");
  }
});

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"];

test("every line from start to shut-down is one JSON record with a level and a time", async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  const requests: [string, RequestInit?][] = [
    ["/"],
    [ROOT_DATA_PATH],
    ["/fixtures/items/1"],
    ["/no-such-page"],
    ["/fixtures/loader-error"],
    ["/fixtures/action-ok", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }],
    ["/", { method: "HEAD" }],
    ["/favicon.svg"],
  ];
  for (const [kind, app] of Object.entries(servers)) {
    const statuses = [];
    for (const [target, init] of requests) statuses.push((await fetch(`${app.url}${target}`, init)).status);
    expect(statuses, kind).toEqual([200, 200, 200, 404, 500, 415, 200, 200]);
    // Refused before the app, outside the request's scope: its line still names its trace.
    const refused = await rawHttp(
      app.port,
      "GET / HTTP/1.1\r\nHost: evil<example\r\nConnection: close\r\n\r\n",
    );
    expect(refused.status, kind).toBe(400);
    const refusal = await app.waitForLog(
      (line) => line.msg === "request refused" && line.requestId === refused.headers["x-request-id"],
    );
    if (kind === "off") expect(refusal, kind).not.toHaveProperty("trace_id");
    else expect(refusal.trace_id, kind).toMatch(/^[0-9a-f]{32}$/);
    expect(await app.stop("SIGTERM"), kind).toEqual({ code: 0, signal: null });
    const lines = app.output().split("\n").filter(Boolean);
    const records = lines.map((line) => {
      expect(() => JSON.parse(line), `${kind}: ${line}`).not.toThrow();
      return JSON.parse(line) as LogLine;
    });
    for (const record of records) {
      expect(LEVELS, `${kind}: ${JSON.stringify(record)}`).toContain(record.level);
      expect(record.time, `${kind}: ${JSON.stringify(record)}`).toEqual(expect.any(String));
    }
    // From the first lines (the logger's `starting` may follow the banner) to the last.
    expect(
      records.slice(0, 2).map((record) => record.msg),
      kind,
    ).toContain("starting");
    expect(records.at(-1)?.msg, kind).toBe("shut down");
    // The requests' own lines, the console fixture's and the failing loader's among them, name their request.
    const named = records.filter((record) => record.msg === "request" || record.msg?.startsWith("Fixture:"));
    for (const record of named)
      expect(record.requestId, `${kind}: ${record.msg}`).toEqual(expect.any(String));
  }
});
