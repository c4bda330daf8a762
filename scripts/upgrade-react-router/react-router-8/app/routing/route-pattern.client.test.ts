/**
 * The browser's route pattern, read from a real router of the framework's
 * (`createMemoryRouter`, the router `HydratedRouter` creates with another
 * history), and the shape test of where it is read: React Router keeps the
 * router `HydratedRouter` creates on `window.__reactRouterDataRouter` from the
 * moment it creates it, before hydration and before any `clientLoader` runs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createMemoryRouter } from "react-router";
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

function routerAt(pathname: string, basename?: string) {
  const router = createMemoryRouter(routes, { basename, initialEntries: [pathname] });
  vi.stubGlobal("window", { __reactRouterDataRouter: router });
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

describe("what it assumes of React Router's HydratedRouter", () => {
  it("keeps the router it creates on window.__reactRouterDataRouter", () => {
    const reactRouter = path.dirname(createRequire(import.meta.url).resolve("react-router/package.json"));
    for (const build of ["development", "production"]) {
      const source = readFileSync(
        path.join(reactRouter, "dist", build, "lib/dom-export/hydrated-router.js"),
        "utf8",
      );
      expect(source).toMatch(/basename: ssrInfo\.context\.basename,/);
      expect(source).toMatch(/\bwindow\.__reactRouterDataRouter = router;/);
    }
  });
});
