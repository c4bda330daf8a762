import { STATUS_CODES } from "node:http";
import { refusalAnswerOver, refusalText, REFUSAL_TEXT_HEADERS, type Refusal } from "~/refusals.server";

/** The framework answers a cross-origin post with a bare 400 after `handleError`, where no hook sees it. */
export function refusalAnswer(response: Response, refusal: Refusal): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(refusal.headers ?? {}))
    if (!headers.has(name)) headers.set(name, value);
  const answer = refusalAnswerOver(response.status, headers.get("content-type") ?? "", refusal);
  if (answer === "framework")
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  const statusText = STATUS_CODES[refusal.status] ?? "";
  if (answer === "status")
    return new Response(response.body, { status: refusal.status, statusText, headers });
  void response.body?.cancel().catch(() => {});
  for (const name of [...headers.keys()])
    if (name.startsWith("content-") || name === "transfer-encoding") headers.delete(name);
  for (const [name, value] of Object.entries(REFUSAL_TEXT_HEADERS)) headers.set(name, value);
  return new Response(refusalText(refusal), { status: refusal.status, statusText, headers });
}
