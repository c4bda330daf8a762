import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { currentDigest, recordDigest, requestedPath, currentOrNewRequestId } from "~/request-scope.server";
import { adaptRemixServeServer, preAppServer, type PreAppHandler } from "./http-server";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("http-server.ts"));

/**
 * The adapter with what remix-serve really runs, its own copy of Express; its command, in a process
 * of its own, is remix-serve-command.test.ts.
 */
const serveRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"));
const express = serveRequire("express") as () => http.RequestListener & {
  get(path: string, handler: (req: { ip: string }, res: { send(body: unknown): void }) => void): void;
};

const answerBeforeApp: PreAppHandler = (request, response) => {
  if (request.url !== "/front") return false;
  response.end("front");
  return true;
};
const appServer = preAppServer([answerBeforeApp], { trust: (_address, hop) => hop === 0 });
const opened: http.Server[] = [];
afterAll(() => opened.forEach((server) => server.close()));

async function listening(server: http.Server): Promise<string> {
  opened.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function adaptedExpress(): Promise<string> {
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
  const server = http.createServer(app);
  appServer.adapt(server);
  return listening(server);
}

describe("preAppServer, with remix-serve's Express", () => {
  it("answers before Express, hands every other request to it, and tracks the server", async () => {
    const base = await adaptedExpress();
    expect(await (await fetch(`${base}/front`)).text()).toBe("front");
    expect((await fetch(`${base}/other`)).status).toBe(404);
    expect(appServer.servers.size).toBe(1);
  });

  it("gives Express the trust rule: the first proxy may name the client", async () => {
    const base = await adaptedExpress();
    const ip = await (await fetch(`${base}/ip`, { headers: { "X-Forwarded-For": "203.0.113.7" } })).text();
    expect(ip).toBe("203.0.113.7");
  });

  it("runs each request Express gets in a scope of its own: one id, the first digest, the path asked for", async () => {
    const base = await adaptedExpress();
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

  it("leaves a server no remix-serve command creates as Node makes it", async () => {
    const adapted: http.Server[] = [];
    const undo = adaptRemixServeServer((server) => adapted.push(server));
    try {
      const admin = http.createServer();
      admin.on("request", (_request: http.IncomingMessage, response: http.ServerResponse) =>
        response.end("admin"),
      );
      expect(await (await fetch(`${await listening(admin)}/front`)).text()).toBe("admin");
      expect(adapted).toEqual([]);
    } finally {
      undo();
    }
  });
});
