/** At most a bound of log lines waits for a stdout nobody reads; past it, lines are dropped and counted (decision 0093). */
import { Buffer } from "node:buffer";

/** Docker's non-blocking log mode buffers as much by default (`max-buffer-size`). */
export const STDOUT_BACKLOG_BYTES = 1024 * 1024;

/** What of a `Writable` (process.stdout) the bound reads. */
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

/**
 * Once a line does not fit, every line is dropped until what waits has left, so the gap is one and
 * `dropLine(count)` stands where it is. Written as bytes: then `writableLength` counts bytes.
 * `maxBytes` is above the stream's high-water mark, so a full backlog always awaits a `drain`.
 */
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
    const bytes = Buffer.from(lines);
    let kept = 0;
    if (dropped === 0) {
      const room = maxBytes - stream.writableLength;
      if (bytes.length <= room) return write(bytes, callback);
      kept = room > 0 ? bytes.lastIndexOf(NEWLINE, room - 1) + 1 : 0;
      if (kept > 0) write(bytes.subarray(0, kept));
      // Below the high-water mark no `drain` comes, and little waits.
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
