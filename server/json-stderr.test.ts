import { spawnSync } from "node:child_process";
import type http from "node:http";
import { Console } from "node:console";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runInRequestScope } from "~/request-scope.server";
import { installJsonStderr } from "./json-stderr";

/**
 * Runs `act` with stderr captured through `installJsonStderr`; what reached the real stderr.
 * `console` writes to process.stderr meanwhile, as in the server (Vitest's own console does not).
 */
async function capturedStderr(act: () => Promise<void> | void): Promise<string[]> {
  const original = process.stderr.write;
  const originalConsole = globalThis.console;
  globalThis.console = new Console({ stdout: process.stdout, stderr: process.stderr });
  const written: string[] = [];
  process.stderr.write = ((chunk: string) => {
    written.push(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    installJsonStderr("web-1");
    await act();
  } finally {
    process.stderr.write = original;
    globalThis.console = originalConsole;
  }
  return written;
}

describe("installJsonStderr", () => {
  it("makes each plain write one JSON line, the request id in it when a request is handled", async () => {
    const written = await capturedStderr(() => {
      console.error("Error: boom\n    at one (file.js:1:1)\n    at two (file.js:2:2)");
      runInRequestScope("/x", () => console.error("inside"), {
        incoming: { headers: { "x-request-id": "req-00000042" } } as unknown as http.IncomingMessage,
        trace: { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", traced: false },
      });
      process.stderr.write('{"level":"fatal"}\n');
    });
    expect(written.every((chunk) => chunk.endsWith("\n") && chunk.split("\n").length === 2)).toBe(true);
    const records = written.map((chunk) => JSON.parse(chunk) as Record<string, unknown>);
    expect(records[0]).toMatchObject({
      level: "error",
      instance: "web-1",
      msg: expect.stringMatching(/^Error: boom\n/),
    });
    expect(records[0]!.requestId).toBeUndefined();
    // The request's own id (a caller's is kept only from a trusted proxy, and this one has no peer).
    expect(records[1]).toMatchObject({
      msg: "inside",
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
    });
    expect(records[2]).toEqual({ level: "fatal" });
  });

  it("writes Node's warnings and `console.warn` at level warn, `console.error` at error", () => {
    const script = `
      const { installJsonStderr } = await import("./server/json-stderr.ts");
      installJsonStderr("web-1");
      process.emitWarning("old API", "DeprecationWarning", "DEP0999");
      setTimeout(() => {
        console.error("(node:1) looks like a warning, from elsewhere");
        console.warn("a warning of the app's");
      }, 10);`;
    const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: path.resolve(import.meta.dirname, ".."),
      encoding: "utf8",
      timeout: 60_000,
    });
    const records = result.stderr
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      expect.objectContaining({
        level: "warn",
        instance: "web-1",
        msg: expect.stringMatching(/^\(node:\d+\) \[DEP0999\] DeprecationWarning: old API\n/),
      }),
      expect.objectContaining({ level: "error", msg: "(node:1) looks like a warning, from elsewhere" }),
      expect.objectContaining({ level: "warn", msg: "a warning of the app's" }),
    ]);
  });

  it("turns the stack Express's own error handler prints into one line", () => {
    // A process of its own: Express's `console` there is Node's, not Vitest's.
    const script = `
      import http from "node:http";
      import { createRequire } from "node:module";
      const { installJsonStderr } = await import("./server/json-stderr.ts");
      installJsonStderr("web-1");
      const root = createRequire(import.meta.url + "/../");
      // The Express the server runs: remix-serve's, else (React Router 8) the app server's own.
      let serve;
      try { serve = root.resolve("@remix-run/serve/package.json"); } catch { serve = root.resolve("./package.json"); }
      const app = createRequire(serve)("express")();
      app.set("env", "production");
      app.get("/", () => { throw new TypeError("Invalid URL"); });
      const server = http.createServer(app).listen(0, "127.0.0.1", async () => {
        console.log((await fetch("http://127.0.0.1:" + server.address().port + "/")).status);
        server.close();
      });`;
    const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: path.resolve(import.meta.dirname, ".."),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.stdout, result.stderr).toBe("500\n");
    const lines = result.stderr.split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "error",
      instance: "web-1",
      msg: expect.stringMatching(/^TypeError: Invalid URL\n\s+at /),
    });
  });
});
