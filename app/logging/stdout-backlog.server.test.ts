import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { boundedLines } from "./stdout-backlog.server";
import { coalescedLines } from "./stdout-lines.server";

/** A stdout nobody reads until `drain()`: what it received, and the most bytes that ever waited in it. */
function unreadStdout(maxBytes: number) {
  const received: Buffer[] = [];
  const held: (() => void)[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      received.push(chunk);
      held.push(() => done());
    },
  });
  let most = 0;
  const sink = boundedLines(
    stream,
    (chunk, callback) => {
      const ready = stream.write(chunk, callback);
      most = Math.max(most, stream.writableLength);
      return ready;
    },
    (dropped) => JSON.stringify({ msg: "dropped", dropped }) + "\n",
    maxBytes,
  );
  return {
    sink,
    most: () => most,
    drain: () => {
      while (held.length > 0) held.shift()!();
    },
    records: () =>
      Buffer.concat(received)
        .toString("utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string; n?: number; dropped?: number }),
  };
}

const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

describe("standard output nobody reads", () => {
  it("holds at most the bound; the lines past it are dropped, and counted in one line once it drains", async () => {
    // Above the stream's high-water mark, as stdout's bound is.
    const BOUND = 256 * 1024;
    const WRITTEN = 20_000;
    const stdout = unreadStdout(BOUND);
    const logger = pino({ base: undefined, timestamp: false }, coalescedLines(stdout.sink));
    for (let n = 0; n < WRITTEN; n++) logger.info({ n }, "line");
    await turnEnds();
    expect(stdout.most()).toBeLessThanOrEqual(BOUND);

    stdout.drain();
    logger.info({ n: WRITTEN }, "after");
    await turnEnds();
    stdout.drain();
    const records = stdout.records();
    const gap = records.findIndex((record) => record.msg === "dropped");
    expect(gap).toBeGreaterThan(0);
    // Whole lines in order up to the gap, one line for it, then what was logged after.
    expect(records.slice(0, gap).map((record) => record.n)).toEqual([...Array(gap).keys()]);
    expect(records[gap]!.dropped).toBe(WRITTEN - gap);
    expect(records.slice(gap + 1)).toEqual([{ level: 30, n: WRITTEN, msg: "after" }]);
  });

  it("drops a line longer than the room whole, and says so without waiting for a drain", async () => {
    const stdout = unreadStdout(1000);
    stdout.sink(JSON.stringify({ msg: "long", text: "x".repeat(2000) }) + "\n");
    stdout.sink(JSON.stringify({ msg: "short" }) + "\n");
    await turnEnds();
    stdout.drain();
    expect(stdout.records()).toEqual([{ msg: "dropped", dropped: 2 }]);
  });
});
