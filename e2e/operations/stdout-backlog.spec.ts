/**
 * A stdout nobody reads (a stalled log collector) does not stop the server or fill its memory:
 * past a bound the lines are dropped, and once stdout drains one line says how many; every line
 * that arrives is whole JSON (docs/decisions/0094-a-stalled-stdout-drops-log-lines.md).
 */
import { finished } from "node:stream/promises";
import { STDOUT_BACKLOG_BYTES } from "../../app/logging/stdout-backlog.server";
import { SERVER_HOOK_LIMIT_MS, startApp, type LogLine } from "../../test-support/app-server";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // its stdout left unread

const REQUESTS = 20;
/** The fixture's lines a request, and its access line: some 4 MB in all. */
const LINES_A_REQUEST = 1000 + 1;
/**
 * Besides the server's backlog, what waits in the pipe (16 pages: 64 KiB, 1 MiB with 64 KiB pages)
 * and in this test's paused stream (its high-water mark and one read, 64 KiB each).
 */
const ELSEWHERE_BYTES = 1024 * 1024 + 2 * 64 * 1024;

test("with stdout unread, every request is answered; the lines past the bound are dropped and counted", async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  const app = await startApp();
  const stdout = app.process.stdout!;
  let read = 0;
  try {
    stdout.pause();
    read = Buffer.byteLength(app.stdout());
    for (let request = 0; request < REQUESTS; request++) {
      expect((await fetch(`${app.url}/fixtures/log-flood`)).status).toBe(200);
    }
    stdout.resume();
    await app.waitForLog((line) => typeof line.dropped === "number");
  } finally {
    stdout.resume();
    await app.stop();
    await finished(stdout);
  }
  const lines = app.stdout().split("\n").filter(Boolean);
  const parsed = (line: string) => {
    try {
      return JSON.parse(line) as LogLine;
    } catch {
      return undefined;
    }
  };
  expect(lines.filter((line) => parsed(line) === undefined)).toEqual([]);
  const records = lines.map((line) => parsed(line)!);
  const arrived = records.filter(
    (record) =>
      record.msg?.startsWith("Fixture: flood ") ||
      (record.msg === "request" && record.url === "/fixtures/log-flood"),
  ).length;
  const drops = records.filter((record) => typeof record.dropped === "number");
  const dropped = drops.reduce((sum, record) => sum + (record.dropped as number), 0);
  expect(drops[0]).toMatchObject({ level: "warn", msg: "log lines dropped: stdout did not take them" });
  expect(dropped).toBeGreaterThan(0);
  // What arrived after the pause and before the gap had waited when the dropping began.
  const gap = records.indexOf(drops[0]!);
  const beforeGap = lines.slice(0, gap).reduce((bytes, line) => bytes + Buffer.byteLength(line) + 1, 0);
  expect(beforeGap - read).toBeLessThanOrEqual(STDOUT_BACKLOG_BYTES + ELSEWHERE_BYTES);
  expect(arrived + dropped).toBe(REQUESTS * LINES_A_REQUEST);
});
