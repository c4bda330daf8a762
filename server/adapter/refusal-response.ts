import { STATUS_CODES, type ServerResponse } from "node:http";
import type { Refusal } from "~/errors/refusal";

/**
 * Adapter (server/adapter/README.md): gives a refused request's response its
 * status. The framework answers some refusals with a bare 500 built after
 * `handleError` returned, which no hook of the app sees; remix-serve writes it
 * through the Node response's `write` and `end`, so those calls answer the
 * refusal's status and headers instead. Other requests are not touched.
 */
export function answerRefusal(response: ServerResponse): (refusal: Refusal) => void {
  return (refusal) => {
    const { write, end } = response;
    let replaced: boolean | undefined;
    const decide = () => {
      if (replaced !== undefined || response.headersSent) return (replaced ??= false);
      for (const [name, value] of Object.entries(refusal.headers ?? {}))
        if (!response.hasHeader(name)) response.setHeader(name, value);
      // The framework's own answer when it has the refusal's status (its 405 page), else ours.
      if (response.statusCode < 400 || response.statusCode === refusal.status) return (replaced = false);
      response.statusCode = refusal.status;
      response.statusMessage = STATUS_CODES[refusal.status] ?? "";
      // A single fetch's answer is the framework's encoding, which its browser code decodes
      // (text would be an "Unable to decode" exception there): only its status changes.
      replaced = !isSingleFetchEncoding(response);
      if (replaced) {
        for (const name of response.getHeaderNames())
          if (name.startsWith("content-") || name === "transfer-encoding") response.removeHeader(name);
        response.setHeader("Content-Type", "text/plain; charset=utf-8");
        response.setHeader("Cache-Control", "no-store");
      }
      return replaced;
    };
    response.write = function (this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
      if (!decide()) return write.apply(this, args);
      // The framework's own body (its empty 500) is dropped.
      const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    } as ServerResponse["write"];
    response.end = function (this: ServerResponse, ...args: Parameters<ServerResponse["end"]>) {
      if (!decide()) return end.apply(this, args);
      const callback =
        (args.find((arg) => typeof arg === "function") as (() => void) | undefined) ?? (() => {});
      const text = `${refusal.status} ${STATUS_CODES[refusal.status] ?? ""}: ${refusal.reason}\n`;
      return end.call(this, text, "utf8", callback);
    } as ServerResponse["end"];
  };
}

/** The framework's single-fetch responses (`.data`) are turbo-stream, sent as `text/x-script`. */
function isSingleFetchEncoding(response: ServerResponse): boolean {
  return String(response.getHeader("content-type") ?? "").startsWith("text/x-script");
}
