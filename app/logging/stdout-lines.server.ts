import pino from "pino";

const ERROR = pino.levels.values.error ?? 50;

/** One write a turn (bench/README.md, "Again at 300 routes"); an error, fatal line or exit writes at once. */
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

export function coalescedStdout() {
  const fd1 = pino.destination({ dest: 1, sync: true });
  const stream = coalescedLines((lines) => fd1.write(lines));
  process.on("exit", () => stream.flush());
  return stream;
}
