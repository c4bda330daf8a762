/**
 * A service a loader calls (e2e/tracing/outgoing-calls.spec.ts): it answers every
 * request with JSON and records what arrived, headers included; and reading
 * what it got.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "../../test-support/test-with-app";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

export interface Upstream {
  readonly url: string;
  /** What arrived so far, oldest first. */
  received(): ReceivedRequest[];
  close(): Promise<void>;
}

/** On 127.0.0.1 and a port of its own; it dies with the test worker that started it. */
export async function startUpstream(answer: (path: string) => unknown): Promise<Upstream> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    requests.push({ path, headers: request.headers });
    response.setHeader("Content-Type", "application/json");
    response.end(JSON.stringify(answer(path)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => [...requests],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `sentry-*` entries of a baggage header, decoded. */
export function baggageOf(header: string | string[] | undefined): Record<string, string> {
  const entries = String(header ?? "")
    .split(",")
    .map((entry) => entry.trim().split("="))
    .filter(([key]) => key?.startsWith("sentry-"));
  return Object.fromEntries(entries.map(([key, value]) => [key!, decodeURIComponent(value ?? "")]));
}

/** The headers of the one request `service` got for `path`. */
export function receivedFor(service: Upstream, path: string): IncomingHttpHeaders {
  const matches = service.received().filter((request) => request.path === path);
  expect(matches, `requests to ${path}`).toHaveLength(1);
  return matches[0]!.headers;
}
