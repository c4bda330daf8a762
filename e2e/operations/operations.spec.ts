/**
 * What an operator relies on: JSON log lines (start line, one error line per
 * digest with request id and route), request ids, the health check, graceful
 * shutdown on real signals, and a clear refusal to start with a bad setting.
 */
import { hostname } from "node:os";
import { commandPath, startApp, parseStartScript } from "../../test-support/app-server";
import { expect, settledItems, test } from "../support/spec-helpers";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DIGEST_PATTERN } from "../../app/errors/digest";
import { digestInHtml } from "../../test-support/error-digest";
import { runToExit, type ExitResult } from "../../test-support/run-to-exit";

test.use({ serverStarts: 5 }); // each shut down or configured by its test

test.describe("logs", () => {
  test("stdout is JSON lines, starting with one start line, each naming the instance", async ({
    app,
    request,
  }) => {
    await request.get("/fixtures/items/1?instance-check");
    await app.waitForLog((line) => line.msg === "request");
    const lines = app.stdout().split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    // Without INSTANCE_ID, the host name (a pod's name in Kubernetes).
    for (const line of app.logLines()) expect(line.instance, JSON.stringify(line)).toBe(hostname());
    const start = app.logLines().find((line) => line.msg === "starting");
    expect(start).toMatchObject({
      level: "info",
      mode: "production",
      sentry: true,
      tunnel: false,
      feedback: false,
    });
    expect(start?.port).toBe(app.port);
  });

  test("an error line has everything an operator needs", async ({ request, app }) => {
    const response = await request.get("/fixtures/loader-error");
    expect(response.status()).toBe(500);
    const id = response.headers()["x-request-id"];
    const line = await app.waitForLog((entry) => entry.requestId === id);
    expect(line).toMatchObject({
      level: "error",
      msg: "unexpected server error",
      method: "GET",
      path: "/fixtures/loader-error",
      route: "/fixtures/loader-error",
    });
    expect(line.digest).toMatch(DIGEST_PATTERN);
    expect(typeof line.time).toBe("string");
    expect(line.err).toMatchObject({ type: "Error", message: expect.stringContaining("loader failed") });
    // Its stack names the source, through the server build's source map: the fixture's file and line.
    const fixture = "e2e/fixtures/routes/loader-error.tsx";
    const throwLine =
      readFileSync(fixture, "utf8")
        .split("\n")
        .findIndex((text) => text.includes("throw ")) + 1;
    const innermost = (line.err as { stack: string }).stack.split("\n")[1];
    expect(innermost).toMatch(new RegExp(`/${fixture.replaceAll(".", "\\.")}:${throwLine}:\\d+\\)$`));
  });

  test("one request, one id: the response's, its access line's and its error line's", async ({
    request,
    app,
  }) => {
    const response = await request.get("/fixtures/loader-error?one-id");
    expect(response.status()).toBe(500);
    const id = response.headers()["x-request-id"];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const access = await app.waitForLog(
      (line) => line.msg === "request" && line.url === "/fixtures/loader-error?one-id",
    );
    expect(access).toMatchObject({ requestId: id, status: 500 });
    const errors = app
      .logLines()
      .filter((line) => line.msg === "unexpected server error" && line.requestId === id);
    expect(errors).toHaveLength(1);
  });

  test("a caller's request id is kept only from a trusted proxy (TRUST_PROXY)", async ({ request }) => {
    const incoming = "req-from-proxy-42";
    // The worker's server trusts no proxy: anyone could make their lines look like another request's.
    const untrusted = await request.get("/fixtures/loader-error", { headers: { "X-Request-Id": incoming } });
    expect(untrusted.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const app = await startApp({ env: { TRUST_PROXY: "loopback" } });
    try {
      const trusted = await fetch(`${app.url}/fixtures/loader-error`, {
        headers: { "X-Request-Id": incoming },
      });
      expect(trusted.status).toBe(500);
      expect(trusted.headers.get("x-request-id")).toBe(incoming);
      const access = await app.waitForLog((line) => line.msg === "request" && line.requestId === incoming);
      expect(access).toMatchObject({ status: 500 });
      await app.waitForLog((line) => line.msg === "unexpected server error" && line.requestId === incoming);
    } finally {
      await app.stop();
    }
  });

  test("an unsafe request id is replaced, and every response has one", async ({ request }) => {
    for (const incoming of ["bad id with spaces", "x".repeat(300), "<script>", "short"]) {
      const response = await request.get("/", { headers: { "X-Request-Id": incoming } });
      const id = response.headers()["x-request-id"];
      expect(id, incoming).toMatch(/^[0-9a-f-]{36}$/);
    }
    for (const path of ["/fixtures/items/1.data", "/favicon.ico", "/healthz", "/fixtures/echo-json"]) {
      expect((await request.get(path)).headers()["x-request-id"], path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  test("requests are logged as JSON access records", async ({ request, app }) => {
    await request.get("/fixtures/items/7?from=access-log-test");
    const access = await app.waitForLog(
      (line) => line.msg === "request" && String(line.url).includes("access-log-test"),
    );
    expect(access).toMatchObject({ method: "GET", status: 200 });
  });
});

/** The two checks themselves, as a path, URL or transaction name ends; not `/healthz.data`, which the app serves. */
const HEALTH_PATH = /\/(healthz|readyz)\/?(\?.*)?$/;

test.describe("health check", () => {
  test("GET /healthz and /readyz answer 200, untraced and out of the access log", async ({
    request,
    app,
    recorder,
  }) => {
    // The worker's app also served earlier specs, whose requests (the fuzzer's `/healthz.data`) are logged.
    const linesBefore = app.logLines().length;
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe("ok");
    expect(response.headers()["cache-control"]).toBe("no-store");
    expect((await request.head("/healthz")).status()).toBe(200);
    const ready = await request.get("/readyz");
    expect(ready.status()).toBe(200);
    expect(await ready.text()).toBe("ready");
    expect(ready.headers()["cache-control"]).toBe("no-store");
    expect((await request.head("/readyz")).status()).toBe(200);
    // A page request afterwards: its transaction arriving proves the healthz one had time to arrive too.
    await request.get("/?after-healthz");
    await recorder.waitForItem((item) => item.type === "transaction" && item.payload.transaction === "GET /");
    const isHealthz = (item: {
      type: string;
      payload: { transaction?: string; request?: { url?: string } };
    }) =>
      item.type === "transaction" &&
      (HEALTH_PATH.test(item.payload.transaction ?? "") || HEALTH_PATH.test(item.payload.request?.url ?? ""));
    const transactions = await settledItems(recorder, isHealthz, 0);
    expect(transactions).toEqual([]);
    const lines = app.logLines().slice(linesBefore);
    expect(lines.filter((line) => HEALTH_PATH.test(String(line.url ?? line.msg)))).toEqual([]);
  });
});

test.describe("graceful shutdown", () => {
  test("SIGTERM lets in-flight requests finish, flushes Sentry and exits 0", async ({ recorder }) => {
    const app = await startApp({ env: { SENTRY_DSN: recorder.dsn(), SENTRY_TRACES_SAMPLE_RATE: "0" } });
    const slow = fetch(`${app.url}/fixtures/slow?ms=1500`);
    const failing = await fetch(`${app.url}/fixtures/render-error`);
    expect(failing.status).toBe(500);
    const digest = digestInHtml(await failing.text());
    expect(digest).toMatch(DIGEST_PATTERN);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = app.stop("SIGTERM");
    const response = await slow;
    expect(response.status).toBe(200);
    expect(await stopped).toEqual({ code: 0, signal: null });
    const events = recorder
      .items()
      .filter((item) => item.type === "event" && item.payload.tags?.digest === digest);
    expect(events).toHaveLength(1);
    // Quiet: one line when shutdown starts, one when it ends, nothing on stderr.
    expect(app.logLines().filter((line) => /^shut/.test(String(line.msg)))).toEqual([
      expect.objectContaining({ msg: "shutting down", signal: "SIGTERM", drainDelayMs: 0, graceMs: 10_000 }),
      expect.objectContaining({ msg: "shut down", inFlightFinished: true, sentryFlushed: true }),
    ]);
    expect(app.output()).toBe(app.stdout());
    // No new connections once it has stopped.
    await expect(fetch(`${app.url}/`)).rejects.toThrow();
  });

  test("SIGTERM with a drain delay: not ready at once, still alive and serving with Connection: close, then closed", async () => {
    const drainDelayMs = 4_000;
    const app = await startApp({
      env: { SHUTDOWN_DRAIN_DELAY_MS: String(drainDelayMs), INSTANCE_ID: "drain-test" },
    });
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const stopped = app.stop("SIGTERM");
    await app.waitForLog((line) => line.msg === "shutting down");
    const ready = await fetch(`${app.url}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([503, "draining"]);
    const alive = await fetch(`${app.url}/healthz`);
    expect(alive.status).toBe(200);
    expect(alive.headers.get("connection")).toBe("close");
    const page = await fetch(`${app.url}/fixtures/items/1`);
    expect(page.status).toBe(200);
    expect(page.headers.get("connection")).toBe("close");
    expect(await stopped).toEqual({ code: 0, signal: null });
    const [begin, end] = app.logLines().filter((line) => /^shut/.test(String(line.msg)));
    expect(begin).toMatchObject({ msg: "shutting down", signal: "SIGTERM", drainDelayMs });
    expect(end).toMatchObject({ msg: "shut down", inFlightFinished: true, sentryFlushed: true });
    // It kept accepting for the whole delay: the page above was served in it.
    expect(end!.durationMs).toBeGreaterThanOrEqual(drainDelayMs);
    for (const line of app.logLines()) expect(line.instance, JSON.stringify(line)).toBe("drain-test");
    expect(app.output()).toBe(app.stdout());
    await expect(fetch(`${app.url}/readyz`)).rejects.toThrow();
  });

  test("SIGINT stops an idle server at once, keep-alive connections and all, drain delay or not", async ({
    recorder,
  }) => {
    // The drain delay is for orchestrators (SIGTERM); Ctrl-C at a terminal does not wait for it.
    const app = await startApp({ env: { SENTRY_DSN: recorder.dsn(), SHUTDOWN_DRAIN_DELAY_MS: "30000" } });
    // Leaves an idle keep-alive connection open, which server.close() alone would wait out.
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    const started = Date.now();
    expect(await app.stop("SIGINT")).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(app.output()).toBe(app.stdout());
  });
});

/** Runs the start script to its end (a refused configuration), with only PATH and `env` from outside. */
function startExpectingExit(env: Record<string, string>) {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } };
  const start = parseStartScript(pkg.scripts.start);
  return runToExit(commandPath(process.cwd(), start.command), start.args, {
    env: { PATH: process.env.PATH, ...start.env, PORT: "0", ...env } as unknown as NodeJS.ProcessEnv,
  });
}

/** A start stopped by its configuration: exit 1 and one line, a JSON `fatal` record; the record. */
function configurationFailure(result: ExitResult): Record<string, unknown> {
  const lines = (result.stdout + result.stderr).trim().split("\n");
  expect(result.status, lines.join("\n")).toBe(1);
  expect(lines).toHaveLength(1);
  const record = JSON.parse(lines[0]!) as Record<string, unknown>;
  expect(record).toMatchObject({ level: "fatal", time: expect.any(String) });
  return record;
}

test.describe("configuration", () => {
  const bad: Record<string, string> = {
    SENTRY_DSN: "not-a-dsn",
    SENTRY_TRACES_SAMPLE_RATE: "1.5",
    SENTRY_FEEDBACK: "maybe",
    SENTRY_TUNNEL_ROUTE: "monitoring",
    LOG_LEVEL: "loud",
    HSTS_MAX_AGE: "-1",
    SHUTDOWN_DRAIN_DELAY_MS: "5s",
    TRUST_PROXY: "yes",
    INSTANCE_ID: "not an id",
    PORT: "http",
    HOST: "local host",
  };
  for (const [name, value] of Object.entries(bad)) {
    test(`a bad ${name} stops the server with one line naming it`, async () => {
      const result = await startExpectingExit({ ENV_FILE: "", [name]: value });
      expect(result.status).toBe(1);
      expect(configurationFailure(result).msg).toMatch(
        new RegExp(`^cannot start: Invalid environment: ${name} `),
      );
    });
  }
});

test.describe("the env file", () => {
  const dirs: string[] = [];
  test.afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function envFile(text: string): string {
    const dir = mkdtempSync(path.join(tmpdir(), "env-file-"));
    dirs.push(dir);
    const file = path.join(dir, "app.env");
    writeFileSync(file, text);
    return file;
  }

  test("is read at start, the start line names it, and the real environment wins over it", async () => {
    const file = envFile("INSTANCE_ID=from-file\nHSTS_MAX_AGE=600\n");
    const app = await startApp({ env: { ENV_FILE: file, INSTANCE_ID: "from-environment" } });
    try {
      const start = await app.waitForLog((line) => line.msg === "starting");
      expect(start).toMatchObject({ envFile: file, instance: "from-environment" });
      // A variable only the file sets takes effect.
      const response = await fetch(`${app.url}/`);
      expect(response.headers.get("strict-transport-security")).toMatch(/^max-age=600\b/);
    } finally {
      await app.stop();
    }
  });

  test("a bad value in it stops the server with one line naming the variable", async () => {
    const result = await startExpectingExit({ ENV_FILE: envFile("LOG_LEVEL=loud\n") });
    expect(configurationFailure(result).msg).toMatch(/^cannot start: Invalid environment: LOG_LEVEL /);
  });
});
