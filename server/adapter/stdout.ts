/** remix-serve prints its banner and access lines as plain text; the logger writes to fd 1 directly. */
import { createRequire } from "node:module";
import { clientAddress, type TrustFunction } from "~/http/trust-proxy.server";
import { requestIdOf } from "~/request-scope.server";
import { ACCESS_FORMAT, toJsonLine } from "../log-lines";

export function installJsonStdout(instance: string): void {
  const write = process.stdout.write.bind(process.stdout) as (chunk: string) => boolean;
  let pending = "";
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    // Runs once per request (the access line): no intermediate arrays.
    pending += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    let out = "";
    let start = 0;
    for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n", start)) {
      const json = end === start ? null : toJsonLine(pending.slice(start, end), instance);
      if (json !== null) out += json + "\n";
      start = end + 1;
    }
    pending = pending.slice(start);
    if (out !== "") write(out);
    const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stdout.write;
}

interface Morgan {
  token(name: string, get: (request: import("node:http").IncomingMessage) => string): void;
  format(name: string, format: string): void;
}

/** remix-serve asks the morgan it loads for the "tiny" format by name, so that name is redefined. */
export function installAccessLineFormat(trust: TrustFunction): void {
  const serve = createRequire(import.meta.url).resolve("@remix-run/serve/package.json");
  const morgan = createRequire(serve)("morgan") as Morgan;
  morgan.token("client", (request) => clientAddress(request, trust) || "-");
  morgan.token("request-id", requestIdOf);
  morgan.format("tiny", ACCESS_FORMAT);
}
