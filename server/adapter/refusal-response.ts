import { STATUS_CODES, type ServerResponse } from "node:http";
import { refusalAnswerOver, refusalText, REFUSAL_TEXT_HEADERS, type Refusal } from "~/refusals.server";

/** Adapter (server/adapter/README.md): the framework's bare 500 for a refusal comes where no hook sees it. */
export function answerRefusal(response: ServerResponse): (refusal: Refusal) => void {
  return (refusal) => {
    const { write, end } = response;
    let replaced: boolean | undefined;
    const decide = () => {
      if (replaced !== undefined || response.headersSent) return (replaced ??= false);
      for (const [name, value] of Object.entries(refusal.headers ?? {}))
        if (!response.hasHeader(name)) response.setHeader(name, value);
      const contentType = String(response.getHeader("content-type") ?? "");
      const answer = refusalAnswerOver(response.statusCode, contentType, refusal);
      if (answer === "framework") return (replaced = false);
      response.statusCode = refusal.status;
      response.statusMessage = STATUS_CODES[refusal.status] ?? "";
      replaced = answer === "text";
      if (replaced) {
        for (const name of response.getHeaderNames()) if (describesBody(name)) response.removeHeader(name);
        for (const [name, value] of Object.entries(REFUSAL_TEXT_HEADERS)) response.setHeader(name, value);
      }
      return replaced;
    };
    response.write = function (this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
      if (!decide()) return write.apply(this, args);
      const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    } as ServerResponse["write"];
    response.end = function (this: ServerResponse, ...args: Parameters<ServerResponse["end"]>) {
      if (!decide()) return end.apply(this, args);
      const callback =
        (args.find((arg) => typeof arg === "function") as (() => void) | undefined) ?? (() => {});
      return end.call(this, refusalText(refusal), "utf8", callback);
    } as ServerResponse["end"];
  };
}

/** The framework's body goes, so do the headers that describe it; its security headers stay. */
function describesBody(name: string): boolean {
  return (name.startsWith("content-") && name !== "content-security-policy") || name === "transfer-encoding";
}
