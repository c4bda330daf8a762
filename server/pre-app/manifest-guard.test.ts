import { matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { boundedManifestTarget, manifestBoundsOf, MANIFEST_URL_LIMIT } from "./manifest-guard";

/** A route table with what makes matching deep paths interesting: splats, params, optional and nested segments. */
const table: Record<string, { id: string; path?: string; parentId?: string; index?: boolean }> = {
  root: { id: "root", path: "" },
  index: { id: "index", parentId: "root", index: true },
  splat: { id: "splat", parentId: "root", path: "*" },
  docs: { id: "docs", parentId: "root", path: "docs" },
  docsSplat: { id: "docsSplat", parentId: "docs", path: "*" },
  item: { id: "item", parentId: "root", path: "fixtures/items/:id" },
  deep: { id: "deep", parentId: "root", path: "a/b" },
  deeper: { id: "deeper", parentId: "deep", path: "c/:d?" },
};

function tree(parentId?: string): Parameters<typeof matchRoutes>[0] {
  return Object.values(table)
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, index: true }
        : { id: route.id, path: route.path, children: tree(route.id) },
    );
}

/** The ids of the routes one path matches (React Router 7's manifest handler matches each path once). */
function matchedIds(path: string): string[] {
  return (matchRoutes(tree(), path) ?? []).map((match) => match.route.id!).sort();
}

/** What Remix's manifest handler answers for a query: the ids of every route matched by every prefix of every p. */
function answer(search: string): string[] {
  const ids = new Set<string>();
  for (let p of new URLSearchParams(search).getAll("p")) {
    if (!p.startsWith("/")) p = `/${p}`;
    const segments = p.split("/").slice(1);
    segments.forEach((_, i) => {
      for (const match of matchRoutes(tree(), "/" + segments.slice(0, i + 1).join("/")) ?? [])
        ids.add(match.route.id!);
    });
  }
  return [...ids].sort();
}

const bounds = manifestBoundsOf(table);

describe("manifestBoundsOf", () => {
  it("measures the deepest route's full path, and takes the basename", () => {
    expect(bounds).toEqual({ path: "/__manifest", maxDepth: 4 });
    expect(manifestBoundsOf(table, "/app/").path).toBe("/app/__manifest");
  });
});

describe("boundedManifestTarget", () => {
  const bounded = (search: string) => {
    const target = boundedManifestTarget(search, "/__manifest", bounds.maxDepth)!;
    return target.slice(target.indexOf("?"));
  };

  it("answers what Remix answers for the paths a client asks about, deep ones included", () => {
    const paths = [
      "/",
      "/docs",
      "/docs/x/y/z/w/v/u",
      "/fixtures/items/1",
      "/fixtures/items/1/extra/more/and/more",
      "/a/b",
      "/a/b/c",
      "/a/b/c/d",
      "/a/b/c/d/e/f/g/h",
      "/x/y/z/1/2/3/4/5/6",
      "docs/relative/a/b/c/d/e",
    ];
    for (const path of paths) {
      const search = `?version=abc&p=${encodeURIComponent(path)}`;
      expect(answer(bounded(search)), path).toEqual(answer(search));
    }
    const all = "?" + paths.map((path) => `p=${encodeURIComponent(path)}`).join("&");
    expect(answer(bounded(all))).toEqual(answer(all));
  });

  it("cuts the advisory's attack to the route table's depth: thousands of segments, encoded or not", () => {
    const deep = "/a".repeat(1800);
    const searches = [
      `?version=v&p=${"/a".repeat(3800)}`,
      `?version=v&p=${encodeURIComponent(deep)}`,
      `?%70=${deep}`,
    ];
    for (const search of searches) {
      const kept = new URLSearchParams(bounded(search)).getAll("p");
      expect(kept).toEqual(["/a/a/a/a/a"]);
    }
  });

  it("keeps each p once and every other parameter as it came", () => {
    const search = `?p=/docs/a/b/c/d/e&version=v1&p=/docs/a/b/c/d/f&p=/docs&p=/docs`;
    expect(new URLSearchParams(bounded(search)).getAll("p")).toEqual(["/docs/a/b/c/d", "/docs"]);
    expect(new URLSearchParams(bounded(search)).get("version")).toBe("v1");
  });

  it("bounds React Router 7's form, one comma-separated `paths`, the same way", () => {
    const search = `?version=v&paths=${["/docs/a/b/c/d/e", "/docs/a/b/c/d/f", "/docs", "/a".repeat(3000)].join(",")}`;
    expect(new URLSearchParams(bounded(search)).get("paths")).toBe("/docs/a/b/c/d,/docs,/a/a/a/a/a");
    // React Router 7 matches each path once: the answer for a cut path is the answer for the path.
    for (const path of ["/docs/x/y/z/w/v/u", "/fixtures/items/1/extra/more/and/more", "/a/b/c/d/e/f/g/h"]) {
      const cut = new URLSearchParams(bounded(`?paths=${encodeURIComponent(path)}`)).get("paths")!;
      expect(matchedIds(cut), path).toEqual(matchedIds(path));
    }
  });

  it("refuses a target longer than Remix's own limit (the real client never sends one)", () => {
    expect(boundedManifestTarget(`?p=${"/a".repeat(MANIFEST_URL_LIMIT)}`, "/__manifest", 4)).toBeUndefined();
  });
});
