/** What `console.log` or a package prints on stdout becomes JSON lines; the logger writes to fd 1 directly. */
import { StringDecoder } from "node:string_decoder";
import { requestLogFields } from "~/logging/request-log-fields.server";

export type LineLevel = "info" | "warn" | "error";

export function plainJsonLine(msg: string, instance: string, level: LineLevel = "info", now = new Date()) {
  return JSON.stringify({ level, time: now.toISOString(), instance, ...requestLogFields(), msg });
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

/** `toJson` turns one line into JSON (null drops it); by default JSON passes through and the rest is wrapped. */
export function installJsonStdout(
  instance: string,
  toJson: (line: string) => string | null = (line) =>
    isJsonLine(line) ? line : plainJsonLine(line, instance),
): void {
  const write = process.stdout.write.bind(process.stdout) as (chunk: string) => boolean;
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
    if (out !== "") write(out);
    const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stdout.write;
  process.once("exit", () => {
    const last = pending + decoder.end();
    pending = "";
    const json = last === "" ? null : toJson(last);
    if (json !== null) write(json + "\n");
  });
}
