/**
 * The recorder's command line (`npm run sentry:recorder`) as a developer runs it, a real
 * process, with the server's SDK (@sentry/node 11) sending to it over HTTP.
 *
 * Time-outs: as in sentry-recorder.test.ts, the limit of a hang on a busy machine, not a pace.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EXIT_WITH_PARENT } from "./app-server";

const root = path.resolve(import.meta.dirname, "..");
const WAIT = { timeout: 30_000, interval: 50 };
const FLUSH_MS = 15_000;

let sdk: typeof import("@sentry/node");
let cli: ChildProcess | undefined;

/** Starts the command line on a free port; collects what it writes. */
function startCli(...args: string[]) {
  const child = spawn(
    path.join(root, "node_modules/.bin/tsx"),
    ["test-support/sentry-recorder-cli.ts", "--port", "0", ...args],
    // It exits when this test worker is gone, even if the worker never reaches afterEach.
    { cwd: root, env: { ...process.env, NODE_OPTIONS: EXIT_WITH_PARENT }, stdio: ["ignore", "pipe", "pipe"] },
  );
  cli = child;
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString("utf8")));
  return output;
}

/** The DSN the command line printed, once `read()`'s text holds it. */
async function dsnFrom(read: () => string): Promise<string> {
  await expect.poll(read, WAIT).toMatch(/^SENTRY_DSN=\S+\n/m);
  return /^SENTRY_DSN=(\S+)\n/m.exec(read())![1]!;
}

/** A client of the server's SDK pointed at `dsn`, with the SDK's own transport and stack parser. */
function sdkClient(dsn: string) {
  return new sdk.NodeClient({
    dsn,
    transport: sdk.makeNodeTransport,
    stackParser: sdk.defaultStackParser,
    integrations: [],
    sendClientReports: false,
  });
}

/** An error event with a tag and a context, as a failing loader's would have. */
function captureLoaderFailure(client: InstanceType<typeof sdk.NodeClient>) {
  const scope = new sdk.Scope();
  scope.setTag("digest", "1234567890");
  scope.setContext("route", { id: "routes/orders" });
  client.captureException(new TypeError("orders failed"), undefined, scope);
}

beforeAll(async () => {
  // The SDK's first import is disk-bound in a fresh clone: not the tests' time.
  sdk = await import("@sentry/node");
}, 60_000);

afterEach(async () => {
  if (cli && cli.exitCode === null && cli.signalCode === null) {
    const exited = once(cli, "exit");
    cli.kill("SIGTERM");
    await exited;
  }
  cli = undefined;
});

describe("npm run sentry:recorder", { timeout: 60_000 }, () => {
  it("prints the DSN first, then one summary line per item", async () => {
    const output = startCli();
    const client = sdkClient(await dsnFrom(() => output.stdout));
    captureLoaderFailure(client);
    await client.flush(FLUSH_MS);
    await client.close(1000);
    await expect
      .poll(() => output.stdout.split("\n"), WAIT)
      .toEqual([
        expect.stringMatching(/^SENTRY_DSN=/),
        expect.stringMatching(
          /^\d\d:\d\d:\d\d\.\d{3} \[1\] event \[error\] TypeError: orders failed digest=1234567890$/,
        ),
        "",
      ]);
  });

  it("--json: stdout is one JSON line per item, the whole event (tags, contexts, frames) and transaction", async () => {
    const output = startCli("--json");
    const client = sdkClient(await dsnFrom(() => output.stderr));
    captureLoaderFailure(client);
    const now = Date.now() / 1000;
    const trace = { trace_id: "b".repeat(32), span_id: "c".repeat(16), op: "http.server" };
    client.captureEvent({
      type: "transaction",
      transaction: "GET /orders",
      start_timestamp: now - 0.05,
      timestamp: now,
      contexts: { trace },
      spans: [
        {
          ...trace,
          span_id: "d".repeat(16),
          parent_span_id: trace.span_id,
          op: "function.remix.loader",
          start_timestamp: now - 0.04,
          data: {},
          status: "ok",
          timestamp: now - 0.01,
        },
      ],
    });
    await client.flush(FLUSH_MS);
    await client.close(1000);

    await expect.poll(() => output.stdout.split("\n").filter(Boolean).length, WAIT).toBe(2);
    const [event, transaction] = output.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { envelope: { event_id?: string }; payload: { event_id?: string } });
    expect(event).toMatchObject({
      project: "1",
      answeredStatus: 200,
      item: { type: "event" },
      payload: {
        tags: { digest: "1234567890" },
        contexts: { route: { id: "routes/orders" } },
        exception: {
          values: [
            {
              type: "TypeError",
              value: "orders failed",
              // This file's frame, as the SDK's stack parser read it.
              stacktrace: {
                frames: expect.arrayContaining([
                  expect.objectContaining({
                    filename: expect.stringMatching(/sentry-recorder-cli\.test\.ts$/),
                    lineno: expect.any(Number),
                  }),
                ]),
              },
            },
          ],
        },
      },
    });
    expect(event!.envelope.event_id).toBe(event!.payload.event_id);
    expect(transaction).toMatchObject({
      item: { type: "transaction" },
      payload: {
        transaction: "GET /orders",
        contexts: { trace: { op: "http.server" } },
        spans: [{ op: "function.remix.loader" }],
      },
    });
    // The summaries still reach a person, on stderr.
    expect(output.stderr).toMatch(/\[1\] event \[error\] TypeError: orders failed digest=1234567890\n/);
  });
});
