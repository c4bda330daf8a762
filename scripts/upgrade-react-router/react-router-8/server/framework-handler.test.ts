import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Refusal } from "~/refusals.server";
import { frameworkHandler } from "./framework-handler";

/**
 * The framework handler with React Router's real request handler and a small
 * build: a resource route that echoes the URL it was given, and a page with an
 * action. Proves the URL's host and protocol follow Express's `trust proxy`, and
 * why the refusal step exists: React Router answers a cross-origin form post
 * with its own 400, which no hook of the app sees (docs/decisions/0081).
 */
const page = () => null;
const build = {
  entry: {
    module: {
      default: () => new Response("<html></html>"),
      handleError: () => {},
      // One as the app's (router-instrumentation.server.ts): it counts the loaders it wraps.
      instrumentations: [
        {
          route: (route: { instrument: (hooks: object) => void }) =>
            route.instrument({
              loader: async (call: () => Promise<unknown>) => void (instrumented++, await call()),
            }),
        },
      ],
    },
  },
  routes: {
    root: { id: "root", path: "", module: { default: page } },
    echo: {
      id: "echo",
      parentId: "root",
      path: "echo",
      module: { loader: ({ request }: { request: Request }) => new Response(request.url) },
    },
    form: { id: "form", parentId: "root", path: "form", module: { default: page, action: () => null } },
  },
  assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "1" },
  publicPath: "/",
  assetsBuildDirectory: "build/client",
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
} as unknown as ServerBuild;

let trusted = false;
let traced = false;
let instrumented = 0;
let refusal: Refusal | undefined;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  const app = express();
  app.set("trust proxy", () => trusted);
  // A header the pre-app handlers set before the framework answers.
  app.use((_req, res, next) => void (res.setHeader("X-Content-Type-Options", "nosniff"), next()));
  app.all(
    "/{*splat}",
    frameworkHandler({ build, mode: "production", refusalOf: () => refusal, isTraced: () => traced }),
  );
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const forwarded = { "X-Forwarded-Host": "app.example:8443", "X-Forwarded-Proto": "https" };

describe("frameworkHandler", () => {
  it("gives the framework the forwarded host and protocol from a trusted proxy only", async () => {
    trusted = true;
    expect(await (await fetch(`${origin}/echo?q=1`, { headers: forwarded })).text()).toBe(
      "https://app.example:8443/echo?q=1",
    );
    trusted = false;
    expect(await (await fetch(`${origin}/echo?q=1`, { headers: forwarded })).text()).toBe(
      `${origin}/echo?q=1`,
    );
  });

  it("writes the framework's answer beside the headers set before it", async () => {
    const response = await fetch(`${origin}/echo`);
    expect([response.status, response.headers.get("x-content-type-options")]).toEqual([200, "nosniff"]);
  });

  it("answers a refused request with the refusal, where the framework's own answer is a bare 400", async () => {
    const post = () =>
      fetch(`${origin}/form`, { method: "POST", headers: { Origin: "http://evil.example" }, body: "a=1" });
    refusal = undefined;
    const framework = await post();
    expect([framework.status, await framework.text()]).toEqual([400, "Bad Request"]);
    refusal = { status: 403, reason: "cross-origin action" };
    const refused = await post();
    expect([refused.status, await refused.text()]).toEqual([403, "403 Forbidden: cross-origin action\n"]);
    refusal = undefined;
  });

  it("serves an untraced request without the instrumentations, a traced one through them", async () => {
    instrumented = 0;
    traced = false;
    expect(await (await fetch(`${origin}/echo`)).text()).toBe(`${origin}/echo`);
    expect(instrumented).toBe(0);
    traced = true;
    expect(await (await fetch(`${origin}/echo`)).text()).toBe(`${origin}/echo`);
    expect(instrumented).toBe(1);
    traced = false;
  });
});
