/**
 * Express's final error handler and Node's warnings write plain text to stderr: in production each
 * write becomes one JSON line, so a log shipper never splits a stack into lines.
 */
import { currentRequestId } from "~/request-scope.server";

type Write = (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;

export function installJsonStderr(instance: string): void {
  const write = process.stderr.write.bind(process.stderr) as Write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")).trimEnd();
    if (text === "" || (text.startsWith("{") && !text.includes("\n"))) return write(chunk, ...rest);
    const record = {
      level: "error",
      time: new Date().toISOString(),
      instance,
      requestId: currentRequestId(),
      msg: text,
    };
    // A callback among `rest` stays with the write; an encoding no longer applies.
    return write(JSON.stringify(record) + "\n", ...rest.filter((arg) => typeof arg === "function"));
  }) as typeof process.stderr.write;
}
