/** What `console.log` or a package prints on stdout becomes JSON lines; the logger's lines take the same way out, unwrapped. */
import { StringDecoder } from "node:string_decoder";
import { requestLogFields } from "~/logging/request-log-fields.server";
import { stdoutLines, type LineSink } from "~/logging/stdout-backlog.server";

export type LineLevel = "info" | "warn" | "error";

/** The longest unended line kept (characters): past it, the text so far leaves marked `continues`. */
export const LONGEST_LINE = 64 * 1024;

export function plainJsonLine(
  msg: string,
  instance: string,
  level: LineLevel = "info",
  now = new Date(),
  fields?: Record<string, unknown>,
) {
  return JSON.stringify({ level, time: now.toISOString(), instance, ...requestLogFields(), msg, ...fields });
}

/** Passed through as written (the preloaded boot's start failures). */
export function isJsonLine(line: string): boolean {
  if (!line.startsWith("{") || !line.endsWith("}") || line.includes("\n")) return false;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** Where to cut a line too long to keep: never between the two halves of a surrogate pair. */
function cutAt(text: string): number {
  const code = text.charCodeAt(LONGEST_LINE - 1);
  return code >= 0xd800 && code <= 0xdbff ? LONGEST_LINE - 1 : LONGEST_LINE;
}

/** `toJson` turns one line into JSON; null drops it. */
export function installJsonStdout(
  instance: string,
  toJson: (line: string) => string | null = (line) =>
    isJsonLine(line) ? line : plainJsonLine(line, instance),
  sink: LineSink = stdoutLines(instance),
): void {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    // Runs once per request (the access line): no intermediate arrays.
    pending += typeof chunk === "string" ? decoder.end() + chunk : decoder.write(chunk);
    let out = "";
    let start = 0;
    for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n", start)) {
      const json = end === start ? null : toJson(pending.slice(start, end));
      if (json !== null) out += json + "\n";
      start = end + 1;
    }
    pending = pending.slice(start);
    while (pending.length > LONGEST_LINE) {
      const at = cutAt(pending);
      out += plainJsonLine(pending.slice(0, at), instance, "info", new Date(), { continues: true }) + "\n";
      pending = pending.slice(at);
    }
    const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    if (out !== "") return sink(out, callback);
    if (callback) process.nextTick(callback);
    return !process.stdout.writableNeedDrain;
  }) as typeof process.stdout.write;
  process.once("exit", () => {
    const last = pending + decoder.end();
    pending = "";
    const json = last === "" ? null : toJson(last);
    if (json !== null) sink(json + "\n");
  });
}
