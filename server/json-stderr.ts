/** Each plain-text write to stderr (Express's final handler, `console`, Node's warnings) as one JSON line: a stack stays whole. */
import { isJsonLine, plainJsonLine } from "./json-stdout";

type Write = (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;

/** How Node prints a process warning (`(node:4242) [DEP0005] DeprecationWarning: …`): a warning, not an error. */
const nodeWarning = () => new RegExp(`^\\(${process.release.name}:${process.pid}\\) `);

export function installJsonStderr(instance: string): void {
  const write = process.stderr.write.bind(process.stderr) as Write;
  const warning = nodeWarning();
  // `console.warn` writes to stderr as `console.error` does: only the call tells them apart.
  let warnCall = false;
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    warnCall = true;
    try {
      warn(...args);
    } finally {
      warnCall = false;
    }
  };
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")).trimEnd();
    if (text === "" || isJsonLine(text)) return write(chunk, ...rest);
    const line = plainJsonLine(text, instance, warnCall || warning.test(text) ? "warn" : "error");
    return write(line + "\n", ...rest.filter((arg) => typeof arg === "function"));
  }) as typeof process.stderr.write;
}
