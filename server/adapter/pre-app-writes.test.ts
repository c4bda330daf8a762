import http from "node:http";
import { createRequire } from "node:module";
import net, { type AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { boundManifestRequests } from "../pre-app/manifest-guard";
import { supplyMissingHost } from "../pre-app/request-guards";
import { adviseOnFailure } from "../../test-support/guard-advice";

adviseOnFailure(
  "an update changed how remix-serve's Express adapter reads Node's request (the rows of " +
    "server/pre-app/request-guards.ts and manifest-guard.ts in server/adapter/README.md): adapt those handlers.",
);

/**
 * Shape test of what two pre-app handlers write on Node's request (README.md's run-time patches):
 * remix-serve's Express adapter builds the framework's Request from `request.headers.host` and
 * `request.url` as they are after the handlers ran, so a missing Host becomes `localhost` and a
 * manifest request reaches the framework cut to the route table's depth.
 */
describe("remix-serve's Express adapter reads what the pre-app handlers wrote", () => {
  const serveRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"));
  const express = serveRequire("express") as () => http.RequestListener & { use(handler: unknown): void };
  // The function its request handler builds the Request with (not re-exported from its index).
  const { createRemixRequest } = serveRequire("@remix-run/express/dist/server.js") as {
    createRemixRequest(req: unknown, res: unknown): Request;
  };
  const app = express();
  app.use((req: unknown, res: http.ServerResponse) => res.end(createRemixRequest(req, res).url));
  const server = http.createServer((request, response) => {
    supplyMissingHost(request, response);
    if (!boundManifestRequests(request, response)) app(request, response);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const port = new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
  /** The framework's URL for a raw request (HTTP/1.0 may leave Host out). */
  const frameworkUrl = async (head: string) => {
    const socket = net.connect(await port, "127.0.0.1");
    socket.end(`${head}\r\nConnection: close\r\n\r\n`);
    let answer = "";
    for await (const chunk of socket) answer += String(chunk);
    return answer.split("\r\n\r\n")[1];
  };

  it("takes the Host supplied for a request without one", async () => {
    expect(await frameworkUrl("GET /page?a=1 HTTP/1.0")).toBe("http://localhost/page?a=1");
  });

  it("takes the manifest request's target as rewritten", async () => {
    const deep = "/a".repeat(100);
    expect(await frameworkUrl(`GET /__manifest?version=1&p=${deep} HTTP/1.1\r\nHost: x`)).toBe(
      `http://x/__manifest?version=1&p=${encodeURIComponent("/a".repeat(33))}`,
    );
  });
});
