/**
 * Names from the framework's own matching, for every shape of route the
 * framework supports, as the server names a request (request-route.server.ts)
 * from a route manifest like the server build's.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { NOT_FOUND_PATTERN, type RouteDefinition } from "./route-patterns";
import { recordServedRoutes, routePatternOf } from "./request-route.server";

/** What Remix's file routes make of these files (`app/routes/<id>.tsx`), in its order. */
const manifest: Record<string, RouteDefinition> = Object.fromEntries(
  [
    { id: "root", path: "" },
    { id: "routes/_index", parentId: "root", index: true },
    { id: "routes/$", parentId: "root", path: "*" },
    // A parent with a loader and an <Outlet/>, and no index child.
    { id: "routes/orders", parentId: "root", path: "orders" },
    { id: "routes/orders.$id", parentId: "routes/orders", path: ":id" },
    { id: "routes/orders.new", parentId: "routes/orders", path: "new" },
    // A pathless layout.
    { id: "routes/_auth", parentId: "root" },
    { id: "routes/_auth.login", parentId: "routes/_auth", path: "login" },
    // A list with an index child.
    { id: "routes/docs", parentId: "root", path: "docs" },
    { id: "routes/docs._index", parentId: "routes/docs", index: true },
    { id: "routes/docs.$", parentId: "routes/docs", path: "*" },
    { id: "routes/($lang).about", parentId: "root", path: ":lang?/about" },
    { id: "routes/sitemap[.]xml", parentId: "root", path: "sitemap.xml" },
    { id: "routes/contact", parentId: "root", path: "contact" },
    { id: "routes/contact_.thanks", parentId: "root", path: "contact/thanks" },
    { id: "routes/Caps", parentId: "root", path: "Caps", caseSensitive: true },
  ].map((route) => [route.id, route]),
);

const url = (path: string) => new URL(path, "http://localhost");

afterEach(() => recordServedRoutes({}));

describe("route patterns from the framework's matches", () => {
  it("names every shape by the full pattern of the deepest route it rendered", () => {
    recordServedRoutes(manifest);
    const names = Object.fromEntries(
      [
        "/",
        "/orders",
        "/orders/",
        "/orders/42",
        "/orders/new",
        "/login",
        "/docs",
        "/docs/guides/setup",
        "/about",
        "/fr/about",
        "/sitemap.xml",
        "/contact",
        "/contact/thanks",
        "/Caps",
        "/caps",
        "/orders/42/extra",
      ].map((path) => [path, routePatternOf(url(path))]),
    );
    expect(names).toEqual({
      "/": "/",
      "/orders": "/orders",
      "/orders/": "/orders",
      "/orders/42": "/orders/:id",
      "/orders/new": "/orders/new",
      "/login": "/login",
      "/docs": "/docs",
      "/docs/guides/setup": "/docs/*",
      "/about": "/:lang?/about",
      "/fr/about": "/:lang?/about",
      "/sitemap.xml": "/sitemap.xml",
      "/contact": "/contact",
      "/contact/thanks": "/contact/thanks",
      "/Caps": "/Caps",
      "/caps": NOT_FOUND_PATTERN,
      "/orders/42/extra": NOT_FOUND_PATTERN,
    });
  });

  it("names a path with a malformed escape not found, without the framework's warning", () => {
    recordServedRoutes(manifest);
    const warn = vi.spyOn(console, "warn");
    expect(routePatternOf(url("/orders/%E0%A4%A"))).toBe(NOT_FOUND_PATTERN);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it("matches under the build's basename, and nothing outside it", () => {
    recordServedRoutes(manifest, "/shop");
    expect(routePatternOf(url("/shop/orders/42"))).toBe("/orders/:id");
    expect(routePatternOf(url("/shop"))).toBe("/");
    expect(routePatternOf(url("/orders/42"))).toBeUndefined();
  });

  it("names nothing where no route matches (a build without routes)", () => {
    expect(routePatternOf(url("/orders/42"))).toBeUndefined();
  });
});
