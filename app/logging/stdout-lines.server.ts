import pino from "pino";
import { stdoutLines } from "./stdout-backlog.server";

const ERROR = pino.levels.values.error ?? 50;
const TURN_CHARS = 64 * 1024;

/** One write a turn (bench/README.md, "Again at 300 routes") or per TURN_CHARS; an error, fatal line or exit at once. */
export function coalescedLines(write: (lines: string) => void) {
  let buffered = "";
  let scheduled = false;
  const flush = (done?: (error?: Error) => void) => {
    scheduled = false;
    if (buffered !== "") {
      const lines = buffered;
      buffered = "";
      write(lines);
    }
    done?.();
  };
  const stream = {
    // pino then sets `lastLevel` before each write.
    [pino.symbols.needsMetadataGsym]: true as const,
    lastLevel: 0,
    write(line: string) {
      buffered += line;
      if (stream.lastLevel >= ERROR || buffered.length >= TURN_CHARS) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
  return stream;
}

export function coalescedStdout(instance: string) {
  const sink = stdoutLines(instance);
  const stream = coalescedLines((lines) => sink(lines));
  process.on("exit", () => stream.flush());
  return stream;
}
