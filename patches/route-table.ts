/**
 * A route table with every kind of route React Router ranks and matches, and
 * paths that exercise each: static, dynamic and optional segments, splats,
 * index and pathless layout routes, nesting, absolute child paths, ranking
 * ties (siblings and not), case sensitivity, trailing slashes, characters a
 * regular expression or a case-insensitive comparison could treat specially,
 * encoded and malformed paths. Plus `generated` routes `/g<i>/items/:id`
 * (some nested, some upper case), as in the benchmark.
 */
/** The route fields matching reads (an AgnosticRouteObject), plus loaders for the static handler. */
export interface Route {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: Route[];
  loader?: typeof data.loader;
  action?: typeof data.action;
}

/** Loaders and actions for the static handler: each returns what it was given. */
const data = {
  loader: ({ params }: { params: Record<string, string | undefined> }) => ({ params }),
  action: () => "done",
};

export function routeTable(generated: number, withData = false): Route[] {
  const r = (route: Route): Route => ({
    ...route,
    ...(withData ? data : {}),
    ...(route.children ? { children: route.children.map(r) } : {}),
  });
  const children: Route[] = [
    { id: "index", index: true },
    { id: "about", path: "about" },
    { id: "about-us", path: "About-Us" },
    { id: "dot", path: "a.b" },
    { id: "tilde", path: "~user" },
    { id: "cafe", path: "café" },
    { id: "space", path: "with space" },
    { id: "plus", path: "c++" },
    { id: "question-mark", path: "a?b" },
    { id: "percent", path: "100%" },
    {
      id: "users",
      path: "users",
      children: [
        { id: "users-index", index: true },
        { id: "user-new", path: "new" },
        {
          id: "user",
          path: ":userId",
          children: [
            { id: "user-index", index: true },
            { id: "post", path: "posts/:postId" },
            { id: "user-splat", path: "*" },
          ],
        },
      ],
    },
    { id: "user-edit", path: "users/:userId/edit" },
    { id: "products", path: ":lang?/products/:id?" },
    { id: "help", path: "help/:topic?" },
    { id: "guide", path: "docs?/guide" },
    { id: "files", path: "files/*" },
    { id: "docs", path: "docs/*" },
    { id: "stars", path: "stars*" },
    {
      id: "auth",
      children: [
        { id: "login", path: "login" },
        { id: "logout", path: "logout" },
        { id: "auth-index", index: true },
      ],
    },
    { id: "tie-1", path: "tie/:a" },
    { id: "tie-2", path: "tie/:b" },
    { id: "x", path: "x", children: [{ id: "x-a", path: ":a" }] },
    { id: "x-b", path: "x/:b" },
    { id: "case-sensitive", path: "CaseSensitive", caseSensitive: true },
    { id: "case-lower", path: "casesensitive" },
    { id: "trailing", path: "trailing/" },
    { id: "abs", path: "abs", children: [{ id: "abs-child", path: "/abs/child" }] },
    { id: "dash", path: "my-page_1" },
    { id: "year", path: "2024/:month" },
    { id: "long-s", path: "ſtraße" },
    { id: "kelvin", path: "\u212Aelvin" },
    { id: "dotted-i", path: "İstanbul" },
    ...Array.from({ length: generated }, (_, i): Route => {
      if (i % 10 === 5) {
        return {
          id: `g${i}`,
          path: `g${i}`,
          children: [
            { id: `g${i}-index`, index: true },
            { id: `g${i}-item`, path: "items/:id" },
          ],
        };
      }
      return { id: `g${i}`, path: `${i % 7 === 3 ? "G" : "g"}${i}/items/:id` };
    }),
    { id: "catch-all", path: "*" },
  ];
  return [
    { id: "root", path: "", children },
    { id: "top", path: "/top" },
  ].map(r);
}

/** Paths for `routeTable(generated)`: each route's own, near misses, and odd ones. */
export function samplePaths(routes: Route[]): string[] {
  const generated = routes[0]!.children!.filter((route) => /^g\d+$/.test(route.id)).length;
  const paths = [
    ...["/", "", "/about", "/about/", "/ABOUT", "/About-Us", "/about-us", "/a.b", "/aXb", "/~user"],
    ...["/caf%C3%A9", "/café", "/CAF%C3%89", "/with%20space", "/with space", "/c++", "/b", "/ab"],
    ...["/100%25", "/100%", "/users", "/users/", "/users/new", "/users/NEW", "/users/42", "/users/42/"],
    ...["/users/42/posts/7", "/users/42/posts/", "/users/42/edit", "/users/42/anything/else"],
    ...["/products", "/en/products", "/en/products/9", "/products/9", "/help", "/help/topic"],
    ...["/help/topic/x", "/guide", "/docs/guide", "/docs", "/docs/a/b", "/files", "/files/"],
    ...["/files/a/b/c", "/files/a%2Fb", "/stars", "/stars/x", "/starsx", "/login", "/logout"],
    ...["/tie/1", "/x/1", "/CaseSensitive", "/casesensitive", "/CASESENSITIVE", "/trailing"],
    ...["/trailing/", "/abs", "/abs/child", "/my-page_1", "/MY-PAGE_1", "/2024/05", "/ſtraße"],
    ...["/STRASSE", "/Straße", "/straße", "/\u212Aelvin", "/kelvin", "/Kelvin", "/İstanbul"],
    ...["/istanbul", "/%E0%A4%A", "/bad%", "//double", "//about", "/about//", "/users//42", "/top"],
    ...["/TOP/", "no-leading-slash", "/g1/items/1?x=1#h", "/.data", "/r/../about", "/app", "/app/"],
  ];
  for (let i = 0; i < generated; i++) {
    paths.push(`/g${i}/items/${i}`, `/G${i}/items/x`, `/g${i}/items`);
    if (i % 10 === 5 || i % 25 === 0) {
      paths.push(`/g${i}`, `/g${i}/`, `/g${i}/items/${i}/extra`, `/g${i}/ITEMS/%20`, `/g${i}x/items/1`);
    }
  }
  return paths;
}
