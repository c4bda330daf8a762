import { STATUS_CODES } from "node:http";
import type { Refusal } from "~/errors/refusal";

/**
 * The answer to a refused request, from the framework's own. The framework
 * answers some refusals itself (a 405 page) and others with a bare error it
 * builds after `handleError` returned (its CSRF check), so no hook of the app
 * sees that response; the app's own server (app-server.ts) holds the
 * framework's Response before writing it and passes it through here.
 *
 * - Not an error, or already the refusal's status: the framework's answer, with
 *   the refusal's headers (`Allow`) added where it has none.
 * - A single fetch (`.data`, turbo-stream, `text/x-script`): the framework's
 *   encoding, which its browser code decodes (text would be an "Unable to
 *   decode" exception there), with the refusal's status.
 * - Anything else: the refusal's status and a short text, without the
 *   framework's body.
 */
export function refusalAnswer(response: Response, refusal: Refusal): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(refusal.headers ?? {}))
    if (!headers.has(name)) headers.set(name, value);
  if (response.status < 400 || response.status === refusal.status)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  const statusText = STATUS_CODES[refusal.status] ?? "";
  if ((headers.get("content-type") ?? "").startsWith("text/x-script"))
    return new Response(response.body, { status: refusal.status, statusText, headers });
  // The framework's own body (its empty 500) is dropped.
  void response.body?.cancel().catch(() => {});
  for (const name of [...headers.keys()])
    if (name.startsWith("content-") || name === "transfer-encoding") headers.delete(name);
  headers.set("Content-Type", "text/plain; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(`${refusal.status} ${statusText}: ${refusal.reason}\n`, {
    status: refusal.status,
    statusText,
    headers,
  });
}
