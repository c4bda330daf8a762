/**
 * The patched route matching of react-router (patches/react-router+<version>.patch,
 * docs/decisions/0068-react-router-8-route-matching-index.md) answers exactly as
 * the unpatched one (react-router-unpatched, the same version untouched): on a
 * large route table with every kind of route and path (route-table.ts), under
 * several basenames, through the static handler (what the server calls), a
 * memory data router that discovers routes on navigation (what the browser
 * does), and against the public `matchRoutes`, which never uses the patched
 * matcher; in both of the package's builds (production, development).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeTable, samplePaths } from "./route-table";

type ReactRouter = typeof import("react-router");
type Routes = Parameters<ReactRouter["createStaticHandler"]>[0];
type Match = { route: { id: string }; params: object; pathname: string; pathnameBase: string };
/** `match` is the handler's own (marked private): the matcher behind `query`, called with the raw location. */
type Handler = ReturnType<ReactRouter["createStaticHandler"]> & {
  match(location: string): Match[] | null;
};

const ROOT = path.resolve(import.meta.dirname, "..");
const load = (pkg: string, build: string) =>
  import(
    pathToFileURL(path.join(ROOT, "node_modules", pkg, "dist", build, "index.js")).href
  ) as Promise<ReactRouter>;
const builds = ["production", "development"].map(
  (build): [string, () => Promise<[ReactRouter, ReactRouter]>] => [
    build,
    async () => [await load("react-router", build), await load("react-router-unpatched", build)],
  ],
);

const BASENAMES = [undefined, "/", "/app", "/app/", "/App"];
/** First segments that decode to an indexed one, or do not decode (a malformed escape later in the path). */
const ENCODED_FIRST_SEGMENTS = [
  "/%61bout",
  "/%41BOUT/",
  "/%61bout/%E0%A4%A",
  "/user%73/42",
  "/users%2F42",
  "/%67%31/items/1",
];
const locationOf = (basename: string | undefined, sample: string) =>
  basename && basename !== "/" && sample.startsWith("/") ? basename + sample : sample;
const describeMatches = (matches: Match[] | null) =>
  matches?.map(({ route, params, pathname, pathnameBase }) => [route.id, params, pathname, pathnameBase]) ??
  null;

// `stars*` (read as `stars/*`) and malformed escapes make both warn, on every match: silenced.
const warn = console.warn;
beforeAll(() => {
  console.warn = () => {};
});
afterAll(() => {
  console.warn = warn;
});

/** node's comparison first: vitest's diffing is slow on thousands of entries and only needed on a difference. */
function expectSame(actual: unknown[], expected: unknown[]) {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toStrictEqual(expected);
}

/** CPU-bound (thousands of matches and queries); generous for a loaded machine. */
const TIMEOUT_MS = 120_000;

describe.each(builds)("the patched react-router, %s build", (_, loadBoth) => {
  it(
    "matches every path on a large table as the unpatched matcher and matchRoutes",
    { timeout: TIMEOUT_MS },
    async () => {
      const [patched, unpatched] = await loadBoth();
      const routes = routeTable(120) as unknown as Routes;
      const paths = [...samplePaths(routeTable(120)), ...ENCODED_FIRST_SEGMENTS];
      expect(paths.length).toBeGreaterThan(500);
      const actual: unknown[] = [];
      const expected: unknown[] = [];
      const reference: unknown[] = [];
      for (const basename of BASENAMES) {
        const handler = patched.createStaticHandler(routes, { basename }) as Handler;
        const stable = unpatched.createStaticHandler(routes, { basename }) as Handler;
        for (const sample of paths) {
          const location = locationOf(basename, sample);
          const where = `${basename ?? "(no basename)"} ${location}`;
          actual.push([where, describeMatches(handler.match(location))]);
          expected.push([where, describeMatches(stable.match(location))]);
          const matches = patched.matchRoutes(handler.dataRoutes, location, basename) as Match[] | null;
          reference.push([where, describeMatches(matches)]);
        }
      }
      expect(actual).toHaveLength(paths.length * BASENAMES.length);
      expectSame(actual, expected);
      expectSame(actual, reference);
    },
  );

  it(
    "answers the static handler's queries as the unpatched one (every path, basenames, 404s, actions)",
    { timeout: TIMEOUT_MS },
    async () => {
      const [patched, unpatched] = await loadBoth();
      const routes = routeTable(120, true) as unknown as Routes;
      const paths = [...samplePaths(routeTable(120)), ...ENCODED_FIRST_SEGMENTS];
      const answer = async (
        router: ReactRouter,
        basename: string | undefined,
        location: string,
        method = "GET",
      ) => {
        const handler = router.createStaticHandler(routes, { basename });
        const url = `http://x${location.startsWith("/") ? "" : "/"}${location}`;
        const context = await handler.query(
          new Request(url, { method, body: method === "POST" ? "" : undefined }),
        );
        if (context instanceof Response) return { status: context.status };
        return {
          status: context.statusCode,
          matches: describeMatches(context.matches as Match[]),
          loaderData: context.loaderData,
          errors: context.errors && Object.keys(context.errors),
        };
      };
      const actual: unknown[] = [];
      const expected: unknown[] = [];
      for (const basename of BASENAMES) {
        for (const sample of paths) {
          const location = locationOf(basename, sample);
          actual.push([basename, location, await answer(patched, basename, location)]);
          expected.push([basename, location, await answer(unpatched, basename, location)]);
        }
      }
      for (const [basename, location, method] of [
        ["/", "/g10/items/5", "POST"],
        ["/app", "/app/users/7/posts/new", "POST"],
        ["/", "/no/such/page", "POST"],
        ["/", "/about", "PATCH"],
      ] as const) {
        actual.push([basename, location, await answer(patched, basename, location, method)]);
        expected.push([basename, location, await answer(unpatched, basename, location, method)]);
      }
      expectSame(actual, expected);
    },
  );

  it("discovers routes on navigation as the unpatched one (patchRoutesOnNavigation)", async () => {
    const [patched, unpatched] = await loadBoth();
    const journey = async (router: ReactRouter, basename?: string) => {
      const instance = router.createMemoryRouter(
        [
          {
            id: "root",
            path: "/",
            children: [
              { id: "home", index: true },
              { id: "about", path: "about" },
            ],
          },
        ],
        {
          basename,
          initialEntries: [basename ?? "/"],
          patchRoutesOnNavigation: ({ path: target, patch }) => {
            if (/\/shop(\/|$)/i.test(target)) {
              patch("root", [{ id: "shop", path: "shop", children: [{ id: "shop-item", path: ":item" }] }]);
            } else if (/\/blog(\/|$)/i.test(target)) {
              patch("root", [{ id: "blog", path: "blog/*" }]);
            }
          },
        },
      );
      const seen: string[][] = [];
      for (const target of ["/shop/hat", "/SHOP", "/blog/a/b", "/nowhere", "/about", "/shop/scarf", "/"]) {
        await instance.navigate(target);
        seen.push(instance.state.matches.map((match) => `${match.route.id} ${JSON.stringify(match.params)}`));
      }
      instance.dispose();
      return seen;
    };
    for (const basename of [undefined, "/app"]) {
      expect(await journey(patched, basename)).toEqual(await journey(unpatched, basename));
    }
  });
});
