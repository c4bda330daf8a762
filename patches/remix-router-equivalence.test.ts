/**
 * The patched @remix-run/router matches exactly as the unpatched one
 * (@remix-run/router-unpatched, the same version untouched): on a large
 * route table with every kind of route and path, through matchRoutes, the
 * static handler and a data router that discovers routes on navigation, in
 * both of the package's builds (CommonJS for Node, ESM for the browser bundle).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeTable, samplePaths, type Route } from "./route-table";
import { adviseOnFailure, PATCH_ADVICE } from "../test-support/guard-advice";

adviseOnFailure(PATCH_ADVICE);

type Router = typeof import("@remix-run/router");
type Routes = Parameters<Router["matchRoutes"]>[0];

const require = createRequire(path.resolve(import.meta.dirname, "../package.json"));
const fileOf = (pkg: string, field: "main" | "module") => {
  const dir = path.dirname(require.resolve(`${pkg}/package.json`));
  return path.join(dir, (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as never)[field]);
};
/** The ESM build, loaded as is (it imports nothing; its package has no "type": "module"). */
const importEsm = (file: string) =>
  import(`data:text/javascript;base64,${readFileSync(file).toString("base64")}`) as Promise<Router>;

const builds: [string, () => Promise<[Router, Router]>][] = [
  [
    "CommonJS (server)",
    async () => [
      require(fileOf("@remix-run/router", "main")) as Router,
      require(fileOf("@remix-run/router-unpatched", "main")) as Router,
    ],
  ],
  [
    "ESM (browser bundle)",
    async () => [
      await importEsm(fileOf("@remix-run/router", "module")),
      await importEsm(fileOf("@remix-run/router-unpatched", "module")),
    ],
  ],
];

const BASENAMES = [undefined, "/", "/app", "/app/", "/App"];

// Both routers warn about `stars*` (read as `stars/*`), the unpatched one on every
// match: silenced (a spy would record thousands of calls).
const warn = console.warn;
beforeAll(() => {
  console.warn = () => {};
});
afterAll(() => {
  console.warn = warn;
});

/** Matches between two turns of the event loop: a fraction of a second, so the worker answers Vitest's calls. */
const MATCHES_PER_TURN = 100;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every match of every sample path, under every basename, from both routers:
 * the same route objects (those of `routes`), params and pathnames. Compared
 * as one list, so that a difference shows the path it happened for.
 */
async function expectSameMatches(
  patched: Router,
  unpatched: Router,
  table: Route[],
  paths: string[],
  basenames = BASENAMES,
) {
  const routes = table as Routes; // the same objects, typed as the router takes them
  const ids = new Map<object, string>();
  const walk = (list: Routes) =>
    list.forEach((route) => {
      ids.set(route, route.id ?? "?");
      if (route.children) walk(route.children);
    });
  walk(routes);
  const describe = (matches: ReturnType<Router["matchRoutes"]>) =>
    matches?.map(({ route, ...rest }) => ({
      route: ids.get(route) ?? "a route not in this tree",
      ...rest,
    })) ?? null;
  const actual: unknown[] = [];
  const expected: unknown[] = [];
  let matched = 0;
  for (const basename of basenames) {
    for (const sample of paths) {
      if (++matched % MATCHES_PER_TURN === 0) await nextTurn();
      const location = basename && basename !== "/" && sample.startsWith("/") ? basename + sample : sample;
      const where = `${basename ?? "(no basename)"} ${location}`;
      actual.push([where, describe(patched.matchRoutes(routes, location, basename))]);
      expected.push([where, describe(unpatched.matchRoutes(routes, location, basename))]);
    }
  }
  // node's comparison first: vitest's diffing is slow on thousands of entries and only needed on a difference.
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toStrictEqual(expected);
  return actual.length;
}

/**
 * CPU-bound (thousands of matches through both routers, in slices between turns of the event
 * loop), so the limits leave room for a machine several times slower than the slowest run seen
 * beside the whole unit suite and one busy loop per core.
 */
const LARGE_TABLE_TIMEOUT_MS = 120_000;
const CHANGED_TREE_TIMEOUT_MS = 60_000;

describe.each(builds)("the patched router, %s", (_, load) => {
  it(
    "matches every path on a large table as the unpatched one, cold and cached",
    { timeout: LARGE_TABLE_TIMEOUT_MS },
    async () => {
      const [patched, unpatched] = await load();
      const routes = routeTable(120);
      const paths = samplePaths(routes);
      expect(paths.length).toBeGreaterThan(500);
      // Twice: the first call builds the cache, the second reads it.
      expect(await expectSameMatches(patched, unpatched, routes, paths)).toBe(
        paths.length * BASENAMES.length,
      );
      await expectSameMatches(patched, unpatched, routes, paths, ["/app"]);
      // A fresh array holding the same tree (what Remix's renderer makes per request): its own route objects.
      await expectSameMatches(patched, unpatched, routeTable(120), paths, [undefined, "/App"]);
    },
  );

  it(
    "never serves a tree changed in place from the cache",
    { timeout: CHANGED_TREE_TIMEOUT_MS },
    async () => {
      const [patched, unpatched] = await load();
      const routes = routeTable(20);
      const paths = [
        ...samplePaths(routes),
        "/added",
        "/added/7",
        "/late/child",
        "/renamed/3",
        "/g0/items/1",
        "/g1/items/2",
      ];
      const check = () => expectSameMatches(patched, unpatched, routes, paths, [undefined, "/app/"]);
      await check();
      const root = routes[0]!;
      const children = root.children!;
      // What patchRoutesOnNavigation does: push into a children array…
      children.push({ id: "added", path: "added/:n" });
      await check();
      // …or give a leaf its first children.
      const leaf = children.find((route) => route.id === "g0")!;
      leaf.children = [{ id: "g0-child", path: "child" }];
      await check();
      // A caller's own edits: a path changed, a route replaced, index flipped, case sensitivity, removal.
      children.find((route) => route.id === "g1")!.path = "renamed/:id";
      await check();
      children[children.findIndex((route) => route.id === "g2")] = { id: "g2-new", path: "g2/items/:id" };
      await check();
      children.find((route) => route.id === "about")!.caseSensitive = true;
      await check();
      children.splice(
        children.findIndex((route) => route.id === "added"),
        1,
      );
      await check();
      children.unshift({ id: "late", path: "late", children: [{ id: "late-child", path: "child" }] });
      await check();
    },
  );

  it("discovers routes on navigation as the unpatched one does (patchRoutesOnNavigation)", async () => {
    const [patched, unpatched] = await load();
    const journey = async (router: Router) => {
      const instance = router
        .createRouter({
          routes: [{ id: "root", path: "/", children: [{ id: "home", index: true }] }],
          history: router.createMemoryHistory({ initialEntries: ["/"] }),
          patchRoutesOnNavigation: ({ path: target, patch }) => {
            if (target.startsWith("/shop")) {
              patch("root", [{ id: "shop", path: "shop", children: [{ id: "shop-item", path: ":item" }] }]);
            } else if (target.startsWith("/blog")) {
              patch("root", [{ id: "blog", path: "blog/*" }]);
            }
          },
        })
        .initialize();
      const seen: string[][] = [];
      for (const target of ["/shop/hat", "/shop", "/blog/a/b", "/nowhere", "/shop/scarf", "/"]) {
        await instance.navigate(target);
        seen.push(instance.state.matches.map((match) => `${match.route.id} ${JSON.stringify(match.params)}`));
      }
      instance.dispose();
      return seen;
    };
    expect(await journey(patched)).toEqual(await journey(unpatched));
  });

  it("answers the static handler's queries as the unpatched one (basename, 404s, actions)", async () => {
    const [patched, unpatched] = await load();
    const answer = async (router: Router, basename: string, url: string, method: string) => {
      const handler = router.createStaticHandler(routeTable(50, true) as Routes, { basename });
      const context = await handler.query(
        new Request(url, { method, body: method === "POST" ? "" : undefined }),
      );
      if (context instanceof Response) return { status: context.status };
      return {
        status: context.statusCode,
        matches: context.matches.map((match) => [match.route.id, match.params, match.pathname]),
        loaderData: context.loaderData,
        errors: context.errors && Object.keys(context.errors),
      };
    };
    for (const [basename, url, method] of [
      ["/", "http://x/g10/items/5", "GET"],
      ["/", "http://x/g10/items/5", "POST"],
      ["/", "http://x/users/7/posts/new", "GET"],
      ["/", "http://x/no/such/page", "GET"],
      ["/app", "http://x/app/g3/items/1?q=1", "GET"],
      ["/app", "http://x/elsewhere/g3/items/1", "GET"],
      ["/", "http://x/files/a%20b/c", "GET"],
    ] as const) {
      expect(await answer(patched, basename, url, method)).toEqual(
        await answer(unpatched, basename, url, method),
      );
    }
  });
});
