/**
 * What the app does not write itself lands on stderr as plain text: the
 * stack Express's final error handler prints for an error nothing else
 * handled, Node's warnings. In production each such write becomes one JSON
 * line (level `error`, the text in `msg`, the request's id when written while
 * a request is handled), so a log shipper never splits a stack into lines.
 * Not under `npm run dev`, where a stack is read in a terminal.
 */
import { currentRequestId } from "~/request-scope.server";

type Write = (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;

/** Routes every later `process.stderr.write` of plain text through one JSON record per write. */
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
    // A callback or encoding among `rest` stays with the write.
    return write(JSON.stringify(record) + "\n", ...rest.filter((arg) => typeof arg === "function"));
  }) as typeof process.stderr.write;
}
