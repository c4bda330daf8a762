import { readFileSync } from "node:fs";
import type http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { currentDigest, recordDigest, requestedPath, currentOrNewRequestId } from "~/request-scope.server";
import { installPreAppHandlers, type PreAppHandler } from "./http-server";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("http-server.ts"));

/**
 * Shape tests of the http.createServer patch against what remix-serve really
 * runs: its own copy of Express, whose `app.listen` creates the server. If an
 * upgrade of either stops going through `http.createServer`, these fail
 * instead of the pre-app handlers (readiness, guards, tunnel) silently vanishing.
 */
const serveRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"));
const express = serveRequire("express") as () => http.RequestListener & {
  get(path: string, handler: (req: { ip: string }, res: { send(body: unknown): void }) => void): void;
  listen(port: number, host: string, callback: () => void): http.Server;
};

const answerBeforeApp: PreAppHandler = (request, response) => {
  if (request.url !== "/front") return false;
  response.end("front");
  return true;
};
const servers = installPreAppHandlers([answerBeforeApp], { trust: (_address, hop) => hop === 0 });
const opened: http.Server[] = [];
afterAll(() => opened.forEach((server) => server.close()));

async function listening(): Promise<string> {
  const app = express();
  app.get("/front", (_req, res) => res.send("express"));
  app.get("/ip", (req, res) => res.send(req.ip));
  // What a loader's copy of the request (no `.data`, another object) finds in the request's scope.
  app.get("/scope/:id", async (_req, res) => {
    const copy = () => new Request("http://localhost/copy");
    const id = currentOrNewRequestId();
    await new Promise((resolve) => setTimeout(resolve, 5));
    recordDigest(`digest-of-${id}`);
    recordDigest("a-second-failure");
    res.send({
      path: requestedPath(copy()),
      id,
      same: currentOrNewRequestId() === id,
      digest: currentDigest(),
    });
  });
  const server = await new Promise<http.Server>((resolve) => {
    const created: http.Server = app.listen(0, "127.0.0.1", () => resolve(created));
  });
  opened.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("installPreAppHandlers, with remix-serve's Express", () => {
  it("answers before Express, hands every other request to it, and tracks the server", async () => {
    const base = await listening();
    expect(await (await fetch(`${base}/front`)).text()).toBe("front");
    expect((await fetch(`${base}/other`)).status).toBe(404);
    expect(servers.size).toBe(1);
  });

  it("gives Express the trust rule: the first proxy may name the client", async () => {
    const base = await listening();
    const ip = await (await fetch(`${base}/ip`, { headers: { "X-Forwarded-For": "203.0.113.7" } })).text();
    expect(ip).toBe("203.0.113.7");
  });

  it("runs each request Express gets in a scope of its own: one id, the first digest, the path asked for", async () => {
    const base = await listening();
    const answers = await Promise.all(
      ["/scope/1.data?_routes=x", "/scope/2"].map(async (path) => (await fetch(`${base}${path}`)).json()),
    );
    expect(answers).toEqual([
      { path: "/scope/1.data", id: answers[0].id, same: true, digest: `digest-of-${answers[0].id}` },
      { path: "/scope/2", id: answers[1].id, same: true, digest: `digest-of-${answers[1].id}` },
    ]);
    expect(answers[0].id).not.toBe(answers[1].id);
    // Outside a request nothing is kept.
    recordDigest("outside");
    expect(currentDigest()).toBeUndefined();
  });

  it("reaches ESM importers of node:http too, as Vite's dev server imports createServer (npm run dev)", async () => {
    const { createServer } = await import("node:http");
    expect(createServer).toBe(createRequire(import.meta.url)("node:http").createServer);
    expect(createServer.name).toBe("createServerWithPreAppHandlers");
  });

  it("remix-serve still creates its server through Express's app.listen", () => {
    const cli = readFileSync(serveRequire.resolve("./dist/cli.js"), "utf8");
    expect(cli).toMatch(/app\.listen\(port/);
  });
});
