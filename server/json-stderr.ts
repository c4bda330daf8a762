/**
 * Express's final error handler, `console.error`/`warn` and Node's warnings write plain text to stderr: in
 * production each write becomes one JSON line, so a log shipper never splits a stack into lines, and
 * one written during a request names it and its trace.
 */
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
    // A callback among `rest` stays with the write; an encoding no longer applies.
    return write(line + "\n", ...rest.filter((arg) => typeof arg === "function"));
  }) as typeof process.stderr.write;
}
