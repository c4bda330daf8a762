import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { afterAll, describe, expect, it } from "vitest";
import { runInRequestScope } from "~/errors/request-store.server";
import type { ErrorHandler } from "../data-functions";
import { refusingHandleError } from "../refusals";
import { frameworkRefusal } from "./framework-refusals";
import { answerRefusal } from "./refusal-response";

/**
 * Shape tests of what the framework raises when it refuses a request, run
 * through its own request handler with a two-route build (a root without an
 * action, `/act` with one); and of remix-serve's Express adapter writing its
 * answer, which refusal-response.ts rewrites. If an upgrade changes a
 * message, an error's shape or how the response is written, these fail
 * instead of a cross-origin post going back to a 500 with a Sentry event.
 */
function buildWith(handleError: ErrorHandler | ((error: unknown) => unknown)): ServerBuild {
  const component = () => null;
  return {
    mode: "production",
    entry: {
      module: {
        default: (_request: Request, status: number) => new Response("document", { status }),
        handleError,
      },
    },
    routes: {
      root: { id: "root", path: "", module: { default: component } },
      "routes/act": {
        id: "routes/act",
        parentId: "root",
        path: "act",
        module: { default: component, action: () => "acted" },
      },
      "routes/fail": {
        id: "routes/fail",
        parentId: "root",
        path: "fail",
        module: {
          default: component,
          action: () => {
            throw new Error("boom");
          },
        },
      },
    },
    assets: { routes: {}, version: "1", url: "/manifest.js", entry: { module: "/entry.js", imports: [] } },
    publicPath: "/",
    assetsBuildDirectory: "public",
    future: { v3_singleFetch: true },
    basename: undefined,
    isSpaMode: false,
    // React Router 7's build has these too.
    ssr: true,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

/** What the framework hands `handleError` for the request, and its status. */
async function raised(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const errors: unknown[] = [];
  const handle = createRequestHandler(
    buildWith((error: unknown) => errors.push(error)),
    "production",
  );
  const request = new Request(`http://app.example${path}`, {
    method: "POST",
    body: "a=1",
    ...init,
    headers: { Host: "app.example", "Content-Type": "application/x-www-form-urlencoded", ...init.headers },
  });
  const response = await handle(request);
  return {
    errors,
    status: response.status,
    refusals: errors.map((error) => frameworkRefusal(error, request)),
  };
}

describe("the framework's refusals", () => {
  it.each([
    ["a document post", "/act"],
    ["a single-fetch post", "/act.data"],
  ])("a cross-origin action (%s) raises an error, which is a 403 refusal", async (_name, path) => {
    const cases: Record<string, string>[] = [
      { Origin: "http://evil.example" },
      { Origin: "http://evil.example", "X-Forwarded-Host": "app.example:8080" },
      { Origin: "null" },
    ];
    for (const headers of cases) {
      const { refusals, status } = await raised(path, { headers });
      // Remix 2 answers 500 (React Router 7 some with 400): refusal-response.ts makes it the refusal's status.
      expect(status).toBeGreaterThanOrEqual(400);
      expect(refusals).toEqual([{ status: 403, reason: "cross-origin action" }]);
    }
  });

  it("a malformed Origin on an action raises an error that is a 400 refusal", async () => {
    const { refusals } = await raised("/act", { headers: { Origin: "not a url" } });
    expect(refusals).toEqual([{ status: 400, reason: "malformed Origin header" }]);
  });

  it.each(["/", "/_root.data"])(
    "a post to a route without an action (%s) raises a 405, refused with Allow",
    async (path) => {
      const { refusals, status } = await raised(path);
      expect(status).toBe(405);
      expect(refusals).toEqual([
        { status: 405, reason: "method not allowed", headers: { Allow: "GET, HEAD" } },
      ]);
    },
  );

  it("a legacy ?_data request raises nothing but refusals", async () => {
    const { refusals } = await raised("/?_data=root", { method: "GET", body: null });
    for (const refusal of refusals) expect(refusal?.status).toBe(400);
  });

  it("a same-origin action raises nothing, and an action's own error is no refusal", async () => {
    expect((await raised("/act", { headers: { Origin: "http://app.example" } })).errors).toEqual([]);
    const { refusals } = await raised("/fail", { headers: { Origin: "http://app.example" } });
    expect(refusals).toEqual([undefined]);
  });
});

describe("remix-serve's Express adapter answering a refusal", () => {
  const serveRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"));
  const express = serveRequire("express") as () => http.RequestListener & {
    all(path: string, handler: unknown): void;
  };
  const { createRequestHandler: expressHandler } = serveRequire("@remix-run/express") as {
    createRequestHandler(options: { build: ServerBuild; mode: string }): unknown;
  };
  const app = express();
  app.all("*", expressHandler({ build: buildWith(refusingHandleError(undefined)), mode: "production" }));
  const server = http.createServer((request, response) =>
    runInRequestScope(request.url ?? "/", () => app(request, response), answerRefusal(response)),
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

  it("answers a cross-origin action 403 with a short text, on documents and single fetches", async () => {
    for (const path of ["/act", "/act.data"]) {
      const response = await post(path, { Origin: "http://evil.example" });
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toBe("403 Forbidden: cross-origin action\n");
    }
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
