import fc from "fast-check";
import { matchRoutes as appMatchRoutes } from "@remix-run/react";
import { matchRoutes } from "@remix-run/router";
import { afterAll, describe, expect, it } from "vitest";
import { NOT_FOUND_PATTERN, type RouteDefinition, type RouteObject } from "./route-patterns";
import { recordServedRoutes, routePatternOf } from "./request-route.server";

/**
 * Over generated route trees and paths: the server's name of a request is the
 * pattern of the deepest route the framework's own `matchRoutes` matched on
 * that tree (the oracle, given the tree as nested route objects; ours goes
 * through the manifest form a server build has). Each generated route knows
 * its full pattern from how it was generated. `FUZZ_SEED=<n>` replays a failure.
 */
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const runs = { numRuns: 300, ...(seed === undefined ? {} : { seed }) };

/** A generated route: pathless when it has children and no path, an index route when `index`. */
interface Node {
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: Node[];
}

const STATIC = ["a", "b", "A", "items", "a.b", "c-d", "~x", "é"];
const segment = fc.oneof(
  fc.constantFrom(...STATIC),
  fc.constantFrom(":id", ":slug"),
  fc.constantFrom(":lang?", "opt?"),
);
const pathOf = (splat: boolean) =>
  fc
    .tuple(fc.array(segment, { minLength: splat ? 0 : 1, maxLength: 2 }), fc.boolean())
    .map(([segments, withSplat]) => [...segments, ...(splat && withSplat ? ["*"] : [])].join("/"))
    .filter((path) => path !== "");

const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    fc.record({ path: pathOf(true), caseSensitive: fc.boolean() }),
    fc.constant({ index: true }),
    fc.record({
      path: fc.option(pathOf(false), { nil: undefined }),
      caseSensitive: fc.boolean(),
      children: fc.array(tie("node"), { minLength: 1, maxLength: 4 }),
    }),
  ),
}));

/** The app: a root (path "") over the generated routes, sometimes with the catch-all. */
const app = fc.record({
  routes: fc.array(node, { minLength: 1, maxLength: 6 }),
  catchAll: fc.boolean(),
  basename: fc.constantFrom(undefined, "/", "/app"),
});

/** The oracle's nested tree, the manifest (id → route with parentId) and every route's full pattern. */
function describeApp(routes: Node[], catchAll: boolean) {
  const manifest: Record<string, RouteDefinition> = {};
  const patterns = new Map<string, string>();
  let next = 0;
  const build = (nodes: Node[], parentId: string, parentPattern: string): RouteObject[] =>
    nodes.map((n) => {
      const id = `r${next++}`;
      const pattern = n.path ? `${parentPattern.replace(/\/$/, "")}/${n.path}` : parentPattern;
      manifest[id] = { id, parentId, path: n.path, index: n.index, caseSensitive: n.caseSensitive };
      patterns.set(id, pattern);
      const children = n.children && build(n.children, id, pattern);
      const { path, caseSensitive } = n;
      return n.index ? { id, index: true, caseSensitive } : { id, path, caseSensitive, children };
    });
  manifest.root = { id: "root", path: "" };
  patterns.set("root", "/");
  const children = build(catchAll ? [...routes, { path: "*" }] : routes, "root", "/");
  return { tree: [{ id: "root", path: "", children }], manifest, patterns };
}

/** Paths a generated tree could serve: its own segments (values for dynamic ones), in either case, or none. */
const path = fc
  .tuple(
    fc.array(fc.constantFrom(...STATIC, "1", "x", "z", "fr", "ITEMS", "A.B", "opt"), { maxLength: 5 }),
    fc.boolean(),
  )
  .map(
    ([segments, trailingSlash]) => "/" + segments.join("/") + (trailingSlash && segments.length ? "/" : ""),
  );

const counts = { trees: 0, paths: 0, deeper: 0, notFound: 0 };

describe("the name of a request, against the framework's matchRoutes", () => {
  it("is taken with the matchRoutes the framework's server matches with (the patched one)", () => {
    expect(appMatchRoutes).toBe(matchRoutes);
  });

  it("is the full pattern of the deepest route matched, for every generated tree and path", () => {
    fc.assert(
      fc.property(
        app,
        fc.array(path, { minLength: 1, maxLength: 30 }),
        ({ routes, catchAll, basename }, paths) => {
          const { tree, manifest, patterns } = describeApp(routes, catchAll);
          recordServedRoutes(manifest, basename);
          counts.trees++;
          for (const pagePath of paths) {
            const pathname = new URL(`${basename ?? ""}${pagePath}`.replace(/^\/\//, "/"), "http://localhost")
              .pathname;
            const deepest = matchRoutes(tree, pathname, basename)?.at(-1)?.route.id;
            const expected = deepest === undefined ? undefined : patterns.get(deepest);
            expect(routePatternOf(new URL(pathname, "http://localhost"))).toBe(expected);
            // A single-fetch request for the same page is named the same.
            if (!pathname.endsWith("/"))
              expect(routePatternOf(new URL(`${pathname}.data`, "http://localhost"))).toBe(expected);
            counts.paths++;
            if (expected === NOT_FOUND_PATTERN) counts.notFound++;
            else if (deepest !== undefined && deepest !== "root") counts.deeper++;
          }
        },
      ),
      runs,
    );
  });

  afterAll(() => {
    recordServedRoutes({});
    console.info(`route-patterns property: ${counts.trees} trees, ${counts.paths} paths`, counts);
    // The generator reaches the routes it generated, not only the root or the catch-all.
    expect(counts.deeper).toBeGreaterThan(counts.paths / 10);
  });
});
