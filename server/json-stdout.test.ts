import { spawnSync } from "node:child_process";
import type http from "node:http";
import { Console } from "node:console";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runInRequestScope } from "~/request-scope.server";
import { installJsonStdout, LONGEST_LINE } from "./json-stdout";

const recordsOf = (written: string[]) =>
  written
    .join("")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** `console.log` as the server's (Vitest's own does not write to process.stdout); what reached stdout, as records. */
function capturedStdout(
  act: (log: (text: string) => void, soFar: () => Record<string, unknown>[]) => void,
  ready = true,
): Record<string, unknown>[] {
  const original = process.stdout.write;
  const written: string[] = [];
  try {
    installJsonStdout("web-1", undefined, (lines) => {
      written.push(lines);
      return ready;
    });
    const console = new Console({ stdout: process.stdout, stderr: process.stderr });
    act(
      (text) => console.log(text),
      () => recordsOf(written),
    );
  } finally {
    process.stdout.write = original;
  }
  return recordsOf(written);
}

describe("installJsonStdout", () => {
  it("makes stray output JSON at level info, naming the request and trace it was written in", () => {
    const records = capturedStdout((log) => {
      log("outside");
      runInRequestScope("/x", () => log("inside"), {
        incoming: { headers: {} } as unknown as http.IncomingMessage,
        trace: { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", traced: false },
      });
      log('{"level":"warn","msg":"already JSON"}');
      log("{not json");
    });
    expect(records).toEqual([
      { level: "info", time: expect.any(String), instance: "web-1", msg: "outside" },
      {
        level: "info",
        time: expect.any(String),
        instance: "web-1",
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
        msg: "inside",
      },
      { level: "warn", msg: "already JSON" },
      expect.objectContaining({ level: "info", msg: "{not json" }),
    ]);
  });
});

describe("installJsonStdout, across writes", () => {
  it("decodes a character whose bytes two writes split", () => {
    const records = capturedStdout(() => {
      const bytes = Buffer.from("café ☕\n");
      process.stdout.write(bytes.subarray(0, 4));
      process.stdout.write(bytes.subarray(4, 9));
      process.stdout.write(bytes.subarray(9));
    });
    expect(records).toEqual([expect.objectContaining({ msg: "café ☕" })]);
  });

  it("lets a line longer than LONGEST_LINE leave in parts marked `continues` before its end arrives", () => {
    // The first cut falls inside the emoji: it moves in front of it.
    const text = "a".repeat(LONGEST_LINE - 1) + "😀" + "b".repeat(LONGEST_LINE + 9);
    let before: Record<string, unknown>[] = [];
    const records = capturedStdout((_, soFar) => {
      process.stdout.write(text);
      before = soFar();
      process.stdout.write("\n");
    });
    expect(before).toHaveLength(2);
    expect(records.map((record) => record.continues)).toEqual([true, true, undefined]);
    expect(records.map((record) => record.msg).join("")).toBe(text);
    for (const record of records) {
      expect((record.msg as string).length).toBeLessThanOrEqual(LONGEST_LINE);
      expect(() => encodeURIComponent(record.msg as string), "half an emoji").not.toThrow();
    }
  });

  it("tells a writer to wait when stdout does", () => {
    let ready: boolean | undefined;
    capturedStdout(() => (ready = process.stdout.write("one line\n")), false);
    expect(ready).toBe(false);
  });

  it("writes a last line printed without its newline when the process exits", () => {
    const script = `
      import { installJsonStdout } from "./server/json-stdout.ts";
      installJsonStdout("web-1");
      process.stdout.write("first\\n");
      process.stdout.write(Buffer.from("last, with no newline: é").subarray(0, 24));
      process.stdout.write(Buffer.from("é").subarray(1));
    `;
    const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: path.resolve(import.meta.dirname, ".."),
      encoding: "utf8",
      timeout: 60_000,
    });
    const records = result.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((record) => record.msg)).toEqual(["first", "last, with no newline: é"]);
  });
});
