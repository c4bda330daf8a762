import pino from "pino";

const ERROR = pino.levels.values.error ?? 50;

/**
 * Lines logged in one turn of the event loop leave in one write at its end, as a stream's queued
 * writes do: one system call per access line was the largest cost the scaffold added to a data
 * request (bench/README.md, "Again at 300 routes"). An error or fatal line writes itself and all
 * before it at once, and so does exit, so the lines before a crash are not lost; a line is never split.
 */
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
      if (stream.lastLevel >= ERROR) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
  return stream;
}

/** Standard output through `coalescedLines`, flushed when the process exits. */
export function coalescedStdout() {
  const fd1 = pino.destination({ dest: 1, sync: true });
  const stream = coalescedLines((lines) => fd1.write(lines));
  process.on("exit", () => stream.flush());
  return stream;
}
