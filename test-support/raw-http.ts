/**
 * Raw HTTP/1.1 over a TCP socket, for requests that well-behaved clients
 * refuse to send (control bytes, broken encodings, odd methods, lies in
 * Content-Length). Resolves with the status and headers of the answer.
 */
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function rawHttp(port: number, request: Buffer | string, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      // One response is enough: stop reading once its head (and a short body) arrived.
      const text = Buffer.concat(chunks).toString("latin1");
      if (/^HTTP\/1\.[01] \d{3}/.test(text) && text.includes("\r\n\r\n")) socket.end();
    });
    socket.on("error", () => {
      // A reset after the answer is fine; before it, the 'close' handler reports.
    });
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!match) {
        reject(new Error(`connection closed without an HTTP answer (${text.length} bytes)`));
        return;
      }
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const headers = Object.fromEntries(
        head
          .split("\r\n")
          .slice(1)
          .map((line) => {
            const colon = line.indexOf(":");
            return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
          }),
      );
      resolve({ status: Number(match[1]), headers, body });
    });
    socket.write(request);
  });
}

/** A request head and body, with Content-Length unless the head sets its own. */
export function buildRequest(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = "",
): string {
  const lines = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body && !Object.keys(headers).some((name) => name.toLowerCase() === "content-length")) {
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  }
  return lines.join("\r\n") + "\r\n\r\n" + body;
}
