import { STATUS_CODES, type ServerResponse } from "node:http";
import type { Refusal } from "~/errors/refusal";

/**
 * Adapter (server/adapter/README.md): gives a refused request's response its
 * status. The framework answers some refusals itself (a 405 page) and others
 * with a bare 500 it builds after `handleError` returned (its CSRF check), so
 * no hook of the app sees that response. remix-serve writes the framework's
 * response through the Node response's `write` and `end`
 * (`sendRemixResponse`); called while the request is refused, before any of
 * that, this makes those calls answer an error status other than the
 * refusal's (Remix 2's 500; React Router 7 answers some with 400) with the
 * refusal's status and a short text instead, and adds the refusal's headers
 * (`Allow`) to whatever goes out. Requests that are not refused are not touched.
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
