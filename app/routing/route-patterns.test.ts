import { describe, expect, it } from "vitest";
import { matchRoutePattern } from "./route-pattern-matcher";
import { NOT_FOUND_PATTERN, routePatterns, type RouteDefinition } from "./route-patterns";

const routes: Record<string, RouteDefinition> = {
  root: { id: "root", path: "" },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true },
  "routes/$": { id: "routes/$", parentId: "root", path: "*" },
  "fixtures/items/:id": { id: "fixtures/items/:id", parentId: "root", path: "fixtures/items/:id" },
  "fixtures/items/new": { id: "fixtures/items/new", parentId: "root", path: "fixtures/items/new" },
  "routes/docs": { id: "routes/docs", parentId: "root", path: "docs" },
  "routes/docs._index": { id: "routes/docs._index", parentId: "routes/docs", index: true },
  "routes/docs.$slug": { id: "routes/docs.$slug", parentId: "routes/docs", path: ":slug" },
  "routes/($lang).about": { id: "routes/($lang).about", parentId: "root", path: ":lang?/about" },
};

const patterns = routePatterns(routes);
const match = (pathname: string) => matchRoutePattern(pathname, patterns);

describe("routePatterns", () => {
  it("gives every page route its full pattern with a leading slash", () => {
    expect(patterns.map((p) => p.pattern).sort()).toEqual(
      [
        "/",
        "/*",
        "/docs",
        "/docs/:slug",
        "/fixtures/items/:id",
        "/fixtures/items/new",
        "/:lang?/about",
      ].sort(),
    );
  });

  it("puts the catch-all last", () => {
    expect(patterns.at(-1)?.pattern).toBe(NOT_FOUND_PATTERN);
  });
});

describe("matchRoutePattern", () => {
  it("names the start page and dynamic segments by pattern", () => {
    expect(match("/")).toBe("/");
    expect(match("/fixtures/items/1")).toBe("/fixtures/items/:id");
    expect(match("/fixtures/items/42/")).toBe("/fixtures/items/:id");
    expect(match("/docs")).toBe("/docs");
    expect(match("/docs/intro")).toBe("/docs/:slug");
  });

  it("prefers static segments over dynamic ones", () => {
    expect(match("/fixtures/items/new")).toBe("/fixtures/items/new");
  });

  it("handles optional segments", () => {
    expect(match("/about")).toBe("/:lang?/about");
    expect(match("/en/about")).toBe("/:lang?/about");
  });

  it("sends everything else to the catch-all", () => {
    for (const pathname of ["/nope", "/fixtures/items", "/fixtures/items/1/extra", "/%E0%A4%A", "/a/b/c/d"]) {
      expect(match(pathname)).toBe(NOT_FOUND_PATTERN);
    }
  });

  it("matches exactly one regex for any pathname, so order never matters", () => {
    for (const pathname of ["/", "/fixtures/items/1", "/fixtures/items/new", "/nope", "/docs/x"]) {
      const hits = patterns.filter((p) => new RegExp(p.regex).test(pathname)).map((p) => p.pattern);
      const nonSplat = hits.filter((p) => p !== NOT_FOUND_PATTERN);
      expect(hits.length === 1 || nonSplat.length === hits.length).toBe(true);
    }
  });
});
