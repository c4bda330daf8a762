/**
 * What the refusal specs (e2e/hostile-input/client-refusals.spec.ts, e2e/hostile-input/request-fuzz.spec.ts)
 * share: raw requests, each request's log lines told apart by the id its
 * response carries, and what one request left in the log and at the recorder.
 */
import { randomUUID } from "node:crypto";
import type { AppServer, LogLine } from "../../test-support/app-server";
import { rawHttp, type RawResponse } from "../../test-support/raw-http";

export interface RawRequest {
  method: string;
  target: string;
  /** Sent as given; `Host: 127.0.0.1` unless one is given. */
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** The request's bytes: its own `X-Request-Id` and a Content-Length for a body. */
export function rawRequestBytes(
  { method, target, headers = {}, body }: RawRequest,
  requestId: string,
): Buffer {
  const names = Object.keys(headers).map((name) => name.toLowerCase());
  const lines = [`${method} ${target} HTTP/1.1`, "Connection: close", `X-Request-Id: ${requestId}`];
  if (!names.includes("host")) lines.push("Host: 127.0.0.1");
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const bytes = body === undefined ? undefined : Buffer.from(body);
  if (bytes && !names.includes("content-length")) lines.push(`Content-Length: ${bytes.byteLength}`);
  return Buffer.concat([Buffer.from(lines.join("\r\n") + "\r\n\r\n", "latin1"), bytes ?? Buffer.alloc(0)]);
}

/**
 * Sends `request` over raw HTTP with a fresh request id; the answer and the id
 * the server gave the request: its own, unless the peer is a trusted proxy
 * (TRUST_PROXY). A request Node's parser refused never reached the app: no id,
 * and one that names no line.
 */
export async function send(
  app: AppServer,
  request: RawRequest,
): Promise<RawResponse & { requestId: string }> {
  const response = await rawHttp(app.port, rawRequestBytes(request, `refusal-${randomUUID()}`));
  return { ...response, requestId: response.headers["x-request-id"] ?? `unanswered-${randomUUID()}` };
}

/** The app's log lines about one request besides its access line (which names its id too). */
export function linesOf(app: AppServer, requestId: string): LogLine[] {
  return app.logLines().filter((line) => line.requestId === requestId && line.msg !== "request");
}

/** Log lines that say something failed: what no client request may cause. */
export function failureLines(lines: LogLine[]): LogLine[] {
  return lines.filter((line) => ["warn", "error", "fatal"].includes(String(line.level)));
}

export type { RawResponse };
