import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { installRemixJsonStdout } from "./stdout";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("stdout.ts"));

describe("installRemixJsonStdout", () => {
  it("rewrites whole lines, keeps a partial line until its end arrives, and drops empty lines", () => {
    const original = process.stdout.write;
    const written: string[] = [];
    process.stdout.write = ((chunk: string) => {
      written.push(chunk);
      return true;
    }) as typeof process.stdout.write;
    try {
      installRemixJsonStdout("web-1");
      process.stdout.write("::1 req-00000001 - GET /a 200 12 - 1.5 ms\n\nhello");
      process.stdout.write(" world\n");
      process.stdout.write(Buffer.from('{"level":"info"}\n::1 req-00000002 - GET /healthz 200 2 - 0.1 ms\n'));
    } finally {
      process.stdout.write = original;
    }
    const records = written
      .join("")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      expect.objectContaining({
        msg: "request",
        requestId: "req-00000001",
        client: "::1",
        url: "/a",
        status: 200,
      }),
      expect.objectContaining({ msg: "hello world", instance: "web-1" }),
      { level: "info" },
    ]);
  });
});

describe("what the stdout adapter assumes of remix-serve", () => {
  const serveRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"));
  const cli = readFileSync(serveRequire.resolve("./dist/cli.js"), "utf8");

  it('asks morgan for its format by the name "tiny", which installAccessLineFormat redefines', () => {
    // `morgan["default"]("tiny")`, or `(0, import_morgan.default)("tiny")` as esbuild writes it.
    expect(cli).toMatch(/morgan[\w"[\].)]*\("tiny"\)/);
    const morgan = serveRequire("morgan") as { format?: unknown; token?: unknown };
    expect(typeof morgan.format).toBe("function");
    expect(typeof morgan.token).toBe("function");
  });

  it("prints its banner and access lines through process.stdout (console.log, morgan's default stream)", () => {
    expect(cli).toMatch(/console\.log\(`\[remix-serve\]/);
    expect(cli).not.toMatch(/\("tiny",/);
  });
});
