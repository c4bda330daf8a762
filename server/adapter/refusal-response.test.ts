import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, describe, expect, it } from "vitest";
import { runInRequestScope } from "~/request-scope.server";
import { refusingHandleError } from "./framework-refusals";
import { answerRefusal } from "./refusal-response";
import { buildWith } from "./refusal-test-build";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("refusal-response.ts"));

/**
 * Shape test of remix-serve's Express adapter writing the framework's answer
 * to a refused request, which refusal-response.ts rewrites: if it stops
 * writing through the Node response's `write` and `end`, or writes before
 * `handleError` ran, a cross-origin post goes back to a bare 500.
 */
describe("remix-serve's Express adapter answering a refusal", () => {
  const serveRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"));
  const express = serveRequire("express") as () => http.RequestListener & {
    use(handler: unknown): void;
  };
  const { createRequestHandler: expressHandler } = serveRequire("@remix-run/express") as {
    createRequestHandler(options: { build: ServerBuild; mode: string }): unknown;
  };
  const app = express();
  // `use` with no path: every request, on Express 4 (remix-serve) and 5 (react-router-serve).
  app.use(expressHandler({ build: buildWith(refusingHandleError(undefined)), mode: "production" }));
  const server = http.createServer((request, response) =>
    runInRequestScope(request.url ?? "/", () => app(request, response), {
      answerRefusal: answerRefusal(response),
    }),
  );
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const origin = new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
  const post = async (path: string, headers: Record<string, string> = {}) =>
    fetch(`${await origin}${path}`, {
      method: "POST",
      body: "a=1",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    });

  it("answers a cross-origin document post 403 with a short text", async () => {
    const response = await post("/act", { Origin: "http://evil.example" });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("403 Forbidden: cross-origin action\n");
  });

  it("answers a cross-origin single fetch 403 in the framework's own encoding, which its browser code reads", async () => {
    const response = await post("/act.data", { Origin: "http://evil.example" });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toMatch(/^text\/x-script/);
    expect(await response.text()).toContain("Unexpected Server Error");
  });

  it("adds Allow to the framework's own 405, and leaves other answers alone", async () => {
    const refused = await post("/");
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD");
    expect(await refused.text()).toBe("document");
    const served = await post("/act", { Origin: await origin });
    expect(served.status).toBe(200);
    expect(served.headers.get("allow")).toBeNull();
  });
});
