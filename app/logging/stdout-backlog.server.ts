/** At most 1 MiB of log lines waits for a stdout nobody reads, as in Docker's non-blocking mode (decision 0094). */
import { Buffer } from "node:buffer";

export const STDOUT_BACKLOG_BYTES = 1024 * 1024;

export interface BacklogStream {
  readonly writableLength: number;
  readonly writableNeedDrain: boolean;
  once(event: "drain", listener: () => void): unknown;
}

type Write = (chunk: Uint8Array, callback?: (error?: Error | null) => void) => boolean;

/** Takes whole lines, each ending in "\n"; returns false when a `drain` will follow, as `Writable.write` does. */
export type LineSink = (lines: string, callback?: () => void) => boolean;

const NEWLINE = 0x0a;

function linesIn(bytes: Uint8Array, from: number): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE, from); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** From a line that does not fit until what waits has left, all are dropped: one gap, `dropLine` in it. */
export function boundedLines(
  stream: BacklogStream,
  write: Write,
  dropLine: (dropped: number) => string,
  maxBytes = STDOUT_BACKLOG_BYTES,
): LineSink {
  let dropped = 0;
  const drained = () => {
    const count = dropped;
    dropped = 0;
    write(Buffer.from(dropLine(count)));
  };
  return (lines, callback) => {
    // Bytes: `writableLength` then counts bytes.
    const bytes = Buffer.from(lines);
    let kept = 0;
    if (dropped === 0) {
      const room = maxBytes - stream.writableLength;
      if (bytes.length <= room) return write(bytes, callback);
      kept = room > 0 ? bytes.lastIndexOf(NEWLINE, room - 1) + 1 : 0;
      if (kept > 0) write(bytes.subarray(0, kept));
      // A `drain` comes only past the high-water mark, which `maxBytes` exceeds; below it little waits.
      if (stream.writableNeedDrain) stream.once("drain", drained);
      else setImmediate(drained);
    }
    dropped += linesIn(bytes, kept);
    if (callback) process.nextTick(callback);
    return !stream.writableNeedDrain;
  };
}

const dropLineOf = (instance: string) => (dropped: number) =>
  JSON.stringify({
    level: "warn",
    time: new Date().toISOString(),
    instance,
    msg: "log lines dropped: stdout did not take them",
    dropped,
  }) + "\n";

let shared: LineSink | undefined;

/** The logger's and json-stdout's one way to stdout: created before json-stdout replaces `process.stdout.write`. */
export function stdoutLines(instance: string): LineSink {
  shared ??= boundedLines(
    process.stdout,
    process.stdout.write.bind(process.stdout) as Write,
    dropLineOf(instance),
  );
  return shared;
}
