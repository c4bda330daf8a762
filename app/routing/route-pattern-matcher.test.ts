import { describe, expect, it } from "vitest";
import { matchRoutePattern } from "./route-pattern-matcher";
import { routePatterns, type RouteDefinition, type RoutePattern } from "./route-patterns";

/** The matcher as it was before it bucketed patterns: every pattern's regex in list order. */
const reference = (pathname: string, patterns: RoutePattern[]) =>
  patterns.find(({ regex }) => new RegExp(regex).test(pathname))?.pattern;

/** A large route config: the shapes an app has (nested, optional, splats), and 300 generated routes. */
function routes(generated: number): Record<string, RouteDefinition> {
  const list: RouteDefinition[] = [
    { id: "root", path: "" },
    { id: "index", parentId: "root", index: true },
    { id: "catch-all", parentId: "root", path: "*" },
    { id: "healthz", parentId: "root", path: "healthz" },
    { id: "docs", parentId: "root", path: "docs" },
    { id: "docs-index", parentId: "docs", index: true },
    { id: "docs-slug", parentId: "docs", path: ":slug" },
    { id: "docs-splat", parentId: "root", path: "docs/*" },
    { id: "lang-about", parentId: "root", path: ":lang?/about" },
    { id: "optional-static", parentId: "root", path: "shop?/cart" },
    { id: "user", parentId: "root", path: "users/:id" },
    { id: "user-new", parentId: "root", path: "users/new" },
    { id: "layout", parentId: "root" },
    { id: "login", parentId: "layout", path: "login" },
    { id: "dotted", parentId: "root", path: "a.b" },
    { id: "Upper", parentId: "root", path: "Upper/case" },
    ...Array.from({ length: generated }, (_, i) => ({
      id: `r${i}`,
      parentId: "root",
      path: `r${i}/items/:id`,
    })),
  ];
  return Object.fromEntries(list.map((route) => [route.id, route]));
}

describe("matchRoutePattern", () => {
  it("names every path as the pattern list's first matching regex does, on a large table", () => {
    const patterns = routePatterns(routes(300));
    const paths = [
      ...["", "/", "//", "/healthz", "/healthz/", "/HEALTHZ", "/docs", "/docs/", "/docs/intro", "/docs/a/b"],
      ...["/about", "/en/about", "/en/about/x", "/cart", "/shop/cart", "/shop", "/users/1", "/users/new"],
      ...["/users/new/", "/users", "/login", "/a.b", "/aXb", "/Upper/case", "/upper/case", "/nope", "/r"],
      ...["/%E0%A4%A", "/a/b/c/d", "no-slash", "/r1//items/2", "//r1/items/2", "/r1/items/2/3"],
      ...Array.from({ length: 300 }, (_, i) => [
        `/r${i}/items/${i}`,
        `/r${i}/items`,
        `/R${i}/items/1`,
      ]).flat(),
    ];
    expect(paths.map((path) => [path, matchRoutePattern(path, patterns)])).toEqual(
      paths.map((path) => [path, reference(path, patterns)]),
    );
  });

  it("serves a second pattern list with its own matcher", () => {
    const small = routePatterns(routes(1));
    const large = routePatterns(routes(300));
    expect(matchRoutePattern("/r200/items/1", small)).toBe("/*");
    expect(matchRoutePattern("/r200/items/1", large)).toBe("/r200/items/:id");
  });
});
