import { execFileSync } from "node:child_process";
import path from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { coalescedLines } from "./stdout-lines.server";

function logged() {
  const writes: string[] = [];
  const logger = pino(
    { base: undefined, timestamp: false },
    coalescedLines((lines) => writes.push(lines)),
  );
  return { writes, logger };
}

/** The messages of the lines in `output`, in order. */
const messages = (output: string) =>
  output
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line).msg);

const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

describe("standard output's lines", () => {
  it("written in one turn leave in one write when it ends", async () => {
    const { writes, logger } = logged();
    logger.info("one");
    logger.info("two");
    logger.warn("three");
    expect(writes).toEqual([]);
    await turnEnds();
    expect(writes).toHaveLength(1);
    expect(messages(writes[0]!)).toEqual(["one", "two", "three"]);
    logger.info("four");
    await turnEnds();
    expect(writes).toHaveLength(2);
  });

  it("an error line leaves at once, with everything before it, in order", () => {
    const { writes, logger } = logged();
    logger.info("before");
    logger.error("failed");
    expect(writes).toHaveLength(1);
    expect(messages(writes[0]!)).toEqual(["before", "failed"]);
    logger.fatal("ending");
    expect(writes).toHaveLength(2);
  });

  it("the lines of a process that exits in the same turn reach its standard output", () => {
    const module = path.join(import.meta.dirname, "stdout-lines.server.ts");
    const script = `
      import pino from "pino";
      import { coalescedStdout } from ${JSON.stringify(module)};
      const logger = pino({ base: undefined }, coalescedStdout("web-1"));
      for (let i = 0; i < 3; i++) logger.info("line " + i);
      process.exit(3);`;
    let stdout = "";
    try {
      execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        cwd: import.meta.dirname,
      });
    } catch (error) {
      const failed = error as { status: number; stdout: Buffer };
      expect(failed.status).toBe(3);
      stdout = failed.stdout.toString();
    }
    expect(messages(stdout)).toEqual(["line 0", "line 1", "line 2"]);
  });
});
