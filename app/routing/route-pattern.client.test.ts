/**
 * The browser's route pattern, read from a real router of the framework's
 * (what `RemixBrowser` creates), and the shape test of where it is read:
 * Remix keeps its router on `window.__remixRouter` from the moment it creates
 * it, before hydration and before any `clientLoader` runs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createMemoryHistory, createRouter, type Router } from "@remix-run/router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { browserRoutePattern } from "./route-pattern.client";
import { NOT_FOUND_PATTERN } from "./route-patterns";

const routes = [
  {
    id: "root",
    path: "",
    children: [
      { id: "routes/_index", index: true },
      { id: "routes/$", path: "*" },
      { id: "routes/orders", path: "orders", children: [{ id: "routes/orders.$id", path: ":id" }] },
      { id: "routes/_layout", children: [{ id: "routes/_layout.login", path: "login" }] },
    ],
  },
];

function routerAt(pathname: string, basename?: string): Router {
  const router = createRouter({
    routes,
    basename,
    history: createMemoryHistory({ initialEntries: [pathname] }),
  }).initialize();
  vi.stubGlobal("window", { __remixRouter: router });
  return router;
}

afterEach(() => vi.unstubAllGlobals());

describe("browserRoutePattern", () => {
  it("names the page the router shows by its matches", async () => {
    const router = routerAt("/orders");
    expect(browserRoutePattern()).toBe("/orders");
    await router.navigate("/orders/42");
    expect(browserRoutePattern()).toBe("/orders/:id");
    expect(browserRoutePattern(router.state)).toBe("/orders/:id");
    await router.navigate("/nowhere/at/all");
    expect(browserRoutePattern()).toBe(NOT_FOUND_PATTERN);
  });

  it("names a pathname by the router's own routes, under its basename", () => {
    routerAt("/shop/login", "/shop");
    expect(browserRoutePattern()).toBe("/login");
    expect(browserRoutePattern("/shop/orders/7")).toBe("/orders/:id");
    expect(browserRoutePattern("/shop")).toBe("/");
    expect(browserRoutePattern("/orders/7")).toBeUndefined();
  });

  it("is undefined before the framework created its router", () => {
    vi.stubGlobal("window", {});
    expect(browserRoutePattern()).toBeUndefined();
  });
});

describe("what it assumes of Remix's browser entry", () => {
  it("keeps the router it creates on window.__remixRouter", () => {
    const remixReact = path.dirname(createRequire(import.meta.url).resolve("@remix-run/react/package.json"));
    const browser = readFileSync(path.join(remixReact, "dist/esm/browser.js"), "utf8");
    expect(browser).toMatch(
      /router = createRouter\(\{\s*routes,[\s\S]*?basename: window\.__remixContext\.basename,/,
    );
    expect(browser).toMatch(/\bwindow\.__remixRouter = router;/);
  });
});
