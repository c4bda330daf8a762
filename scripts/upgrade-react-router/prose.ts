import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { rewriteSource, TOKENS, withoutUpgradeOnly } from "./source-rewrite";

/**
 * The upgrade's pass over the prose (README, docs/, the adapter's README), so
 * that the upgraded tree describes itself: the names the source rewrite
 * changes, the package and command names only prose uses, the code examples
 * rewritten as code, and the one passage that is wrong on React Router 8 as a
 * whole (two Sentry majors) replaced. Decision records stay history: those the
 * upgrade overturns are marked superseded instead (supersede()).
 */

/** The prose the pass rewrites (decision records, the upgrade doc and the benchmark's record are history). */
export const PROSE_FILES =
  /^(README\.md|docs\/(?!decisions\/|upgrading-to-)[^/]+\.md|server\/adapter\/README\.md)$/;

/** Passages whose meaning changes beyond a name, before the names are replaced. */
export const PASSAGES: readonly (readonly [string, string])[] = [
  // README's map of the tree (a code block: the column is kept by hand).
  [
    "remix.config.js            Remix's options (future flags, build directory)",
    "react-router.config.ts     React Router's options (build directory)",
  ],
  // The upgraded tree's routes take middleware, which React Router runs and instruments (0085).
  [
    "## See it locally\n",
    "## A middleware for a group of routes\n\n<!-- check-repo-paths: creates app/account/ app/routes/account.tsx app/routes/account.orders.tsx -->\n\nReact Router runs a route's `middleware` before the loaders and actions of that route and of every\nroute under it, on documents and single-fetch requests alike. Read the session once for a group of\nroutes, in their layout, and hand it down through the request's context:\n\n```tsx\n// app/account/session-context.ts\nimport { createContext } from \"react-router\";\nexport const sessionContext = createContext<Session>();\n\n// app/routes/account.tsx: the layout of /account/*\nexport const middleware: Route.MiddlewareFunction[] = [\n  async ({ request, context }, next) => {\n    const session = await readSession(request);\n    if (!session) throw redirect(\"/login\");\n    context.set(sessionContext, session);\n    return next();\n  },\n];\n\n// app/routes/account.orders.tsx\nexport async function loader({ context }: Route.LoaderArgs) {\n  return { orders: await ordersOf(context.get(sessionContext).customerId) };\n}\n```\n\nWhat the team sees in Sentry, for a traced request: the transaction `GET /account/orders`, under it\nthe middleware's span (`function.react_router.middleware`, named by its route's id,\n`routes/account`), and under that the loaders' spans (`function.react_router.loader`), since they run\ninside its `next()`; each span is React Router's own, through its instrumentations (docs/sentry.md).\nThe redirect it throws is an answer: no event. An error it throws is reported as a loader's is: the\nerror page with its digest, one log line and one event carrying that digest, and its span marked\nfailed. `e2e/tracing/middleware-spans.spec.ts` proves both on a fixture route\n(`e2e/fixtures/routes/middleware.tsx`), on a document request and on a navigation's single fetch.\n\n## See it locally\n",
  ],
  // React Router's instrumentations in place of Remix 2's wrapped spans and router subscription (0085).
  [
    '`@sentry/remix`\'s server instrumentation is not used (its OpenTelemetry spans, extra\n  scopes and copied responses cost every request, sampled or not): `server/data-functions/wrap.ts`\n  wraps every loader and action where the server build loads\n  (`server/data-functions/wrapped-server-build.ts`), and `withDataFunctionSpan`\n  (`app/monitoring/data-function-spans.server.ts`) gives them spans only inside a traced request\n  (bench/README.md, "Where the time goes").',
    "`@sentry/react-router`'s server instrumentation is not used (its OpenTelemetry spans, extra scopes\n  and copied responses cost every request, sampled or not): React Router's own instrumentations\n  (`app/monitoring/router-instrumentation.server.ts`, given to the framework with the server build's\n  entry in `server/data-functions/wrapped-server-build.ts`) give each loader, action and route\n  middleware a span (`function.react_router.loader`, `.action`, `.middleware`, named by route id)\n  only inside a traced request, and the transaction its final name from the route React Router\n  matched (docs/decisions/0085). They are read-only, so `server/data-functions/wrap.ts` still wraps\n  every loader and action for the guards (bench/README.md, \"Where the time goes\").",
  ],
  [
    "- **A navigation's trace** (`app/routing/navigations.client.ts`, `e2e/tracing/navigation-trace.spec.ts`):\n  the browser starts a new trace when the framework's router starts a navigation (a link, a form,\n  `navigate()`, back or forward), before it requests anything for the new page.",
    "- **A navigation's trace** (`app/routing/router-operations.client.ts`, `e2e/tracing/navigation-trace.spec.ts`):\n  the browser starts a new trace when React Router starts a navigation, before it requests anything\n  for the new page: `router.navigate` (a link, a form, `navigate()`) through `HydratedRouter`'s\n  instrumentations, back and forward from the history's `popstate`, which React Router hears after\n  this (docs/decisions/0085). It is named by the route pattern from that first moment.",
  ],
  [
    "A page with nothing to load gets its navigation when\n  it is shown; a change of hash is none.",
    "A change of hash is none. A fetcher's call (`router.fetch`)\n  is a `function.react_router.fetcher` span named by its route, under the page load's or\n  navigation's transaction while one is open, else a transaction of its own in the page's trace.",
  ],
  [
    "| `data-function-spans.server.ts` | loader and action spans, given by the loader and action wrapper                              |",
    "| `router-instrumentation.server.ts` | React Router's instrumentations: loader, action and middleware spans, the request's final name |",
  ],
  ["`@sentry/remix`'s server instrumentation", "`@sentry/react-router`'s server instrumentation"],
  // The benchmark's target E, the documented @sentry/remix setup, goes with the upgrade.
  [
    "at the default rate, and the same bare app with `@sentry/remix` set up as Sentry's guide says) at 1,\n100",
    "at the default rate) at 1, 100",
  ],
  [
    "the benchmark against bare Remix and against Sentry's documented setup",
    "the benchmark against bare React Router",
  ],
  [
    "measures the scaffold against bare Remix and Sentry's documented setup: two extra apps that answer",
    "measures the scaffold against bare React Router: an extra app that answers",
  ],
  // The benchmark's bare app is React Router 8's (bench/baseline in the upgraded tree).
  ["against a bare Remix app of the", "against a bare React Router app of the"],
  ["what the scaffold costs against bare Remix", "what the scaffold costs against bare React Router"],
  // Before the adapter README's own title passage below, which this line contains.
  [
    "  adapter/                 every assumption about remix-serve's and Remix's internals, each",
    "  adapter/                 every assumption left about React Router's internals, each",
  ],
  ["remix-serve and Remix 2 offer no hook", "react-router-serve and React Router offer no hook"],
  // Nothing is patched on React Router 8: no patches/ (docs/decisions/0071).
  ["patches/                   patch-package patches applied on every install, with their tests\n", ""],
  // React Router 8's matching is its own, unpatched (docs/decisions/0071).
  [
    "(Remix's route matching is patched so that a request's cost does not grow with\nthe route count: docs/decisions/0030-route-matching-cache.md)",
    "(React Router's own route matching, unpatched, so that its next release is an `npm install`:\ndocs/decisions/0071-react-router-8-runs-its-own-matching.md)",
  ],
  ["remix-serve's and Remix's internals", "react-router-serve's and React Router's internals"],
  // The app runs its own server on React Router 8 (docs/decisions/0067), not the framework's CLI.
  ["served by `remix-serve`, with", "served by a server of its own (Express), with"],
  [
    "server/                    the boot that runs before remix-serve loads the app, and the plain\n                           functions it wires in (request guards, readiness, tunnel, shutdown)",
    "server/                    the boot, the app's own server (app-server.ts) and the plain\n                           functions it calls (request guards, readiness, tunnel, shutdown)",
  ],
  // So `npm run dev` has its access lines too (the app's server writes them), pretty as its other records.
  [
    "and there are no access\nlines; `HOST` defaults to `localhost`; Remix's development mode",
    "and access lines are\nwritten too; `HOST` defaults to `localhost`; React Router's\ndevelopment mode",
  ],
  // The files at the top of the upgraded server/: its own server in place of remix-serve's lines.
  [
    "  log-lines.ts             remix-serve's banner and access lines, as JSON log lines\n",
    "  app-server.ts            the app's own server: the pre-app handlers, static files, then the app\n" +
      "  framework-handler.ts     React Router's request handler, the app server's last handler\n" +
      "  refusal-answer.ts        the answer to a refused request, from the framework's own\n" +
      "  access-log.ts            one access line per request that reaches the app\n",
  ],
  [
    "boot.mjs                   loaded with --import before remix-serve: runs the built server/boot.ts",
    "server.mjs                 `npm start`: runs the built server/boot.ts, then the app's server",
  ],
  [
    "started with the instrument preload and remix-serve's CLI",
    "started with the app's own server (`server.mjs`)",
  ],
  [
    "`server/adapter/refusal-response.ts` turns its 500 into the refusal's status",
    "the app's server (`server/refusal-answer.ts`) turns its 500 into the refusal's status",
  ],
  [
    "(remix-serve's access log, made JSON, with the `client`",
    "(the app's server writes it through the logger, with the `client`",
  ],
  [
    "(remix-serve builds it from Express's `req.protocol` and `req.hostname`; the app sets Express's",
    "(the app's server builds it from Express's `req.protocol` and `req.hostname`, and sets Express's",
  ],
  [
    "- **Server**: `boot.mjs` (loaded by `npm start` through `--import`) starts Sentry\n  (`@sentry/node`) before remix-serve loads the app,",
    "- **Server**: the boot (`server/boot.ts`, which `server.mjs` runs first) starts Sentry\n  (`@sentry/node`) before the app's server and React Router load,",
  ],
];

/** Remix 2's server, config and browser SDK, named in prose (run.ts's check, with its package names). */
export const REMIX_NAME_IN_PROSE = /remix-serve|remix\.config\.js|@sentry\/remix|remix vite:/;

/** Names only prose uses (code imports these through source-rewrite.ts's moves), in this order. */
const PROSE_TOKENS: readonly (readonly [string, string])[] = [
  ["@remix-run/react", "react-router"],
  ["@remix-run/node", "@react-router/node"],
  ["@remix-run/dev", "@react-router/dev"],
  ["remix vite:build", "react-router build"],
  ["remix vite:dev", "react-router dev"],
  ["__remixPluginContext", "__reactRouterPluginContext"],
  ["Remix's Vite plugin", "React Router's Vite plugin"],
  ["Remix's single-fetch client", "React Router's single-fetch client"],
  ["Remix's options", "React Router's options"],
];

/** docs/sentry.md's first point, true on Remix 2 only. */
const TWO_MAJORS = /^- \*\*Two SDK majors\*\*[\s\S]*?(?=^- \*\*)/m;
const ONE_MAJOR = `- **One SDK major**: the server runs \`@sentry/node\` **11.12.0**, the browser \`@sentry/react\`
  **11.12.0** (docs/decisions/0065; the two majors of docs/decisions/0058 were Remix 2's). The
  server never loads the browser SDK. Node 20.19 or newer is required by v11 (the app runs Node 24).
`;

/** Lines about files the upgrade removes (removed-files.ts's REMOVED): the adapter's table rows. */
const REMOVED_FILE_LINES = /^\| `(remix\.d\.ts|patches\/[^`]*\.patch)` .*\n/gm;

/** Fenced TypeScript examples, rewritten as the source files are. */
const CODE_BLOCK = /^```(tsx?)\n([\s\S]*?)^```$/gm;

export function rewriteProse(text: string): string {
  let out = withoutUpgradeOnly(text)
    .replace(REMOVED_FILE_LINES, "")
    .replace(TWO_MAJORS, ONE_MAJOR)
    .replace(CODE_BLOCK, (_block, lang: string, code: string) => {
      return `\`\`\`${lang}\n${rewriteSource(`example.${lang}`, code)}\`\`\``;
    });
  // `@remix-run/node-fetch-server` is no Remix 2 package (React Router's own server is built on it).
  out = out.split(NODE_FETCH_SERVER).join(KEPT);
  for (const [from, to] of [...PASSAGES, ...TOKENS, ...PROSE_TOKENS]) out = out.split(from).join(to);
  return out.split(KEPT).join(NODE_FETCH_SERVER);
}

const NODE_FETCH_SERVER = "@remix-run/node-fetch-server";
const KEPT = "\u0000node-fetch-server\u0000";

/** Decision records the upgrade overturns, and why, for their status line in the upgraded tree. */
export const SUPERSEDED: Record<string, string> = {
  "docs/decisions/0058-two-sentry-majors.md":
    "the browser is on `@sentry/react` 11.12.0, the server's major (0065)",
  "docs/decisions/0061-the-way-off-remix-2.md": "this tree is the upgrade's result, on React Router 8 (0065)",
};

/** The record that moved the upgrade to React Router 8, which supersedes the ones above in the upgraded tree. */
const SUPERSEDING = "0065";

/** Records another decision of the upgraded tree overturns there: by which, and why. */
export const SUPERSEDED_BY_OTHERS: Record<string, { by: string; reason: string }> = {
  "docs/decisions/0030-route-matching-cache.md": {
    by: "0071",
    reason:
      "React Router 8 flattens and ranks the routes once itself, and no package of the framework is patched: the first-segment index is not carried over",
  },
  "docs/decisions/0050-wrap-remix-serve.md": {
    by: "0067",
    reason: "the app runs its own server, so no framework server is wrapped and none of its patches is left",
  },
};

/**
 * Records whose decision holds in the upgraded tree but whose mechanism there is another's: the
 * app's own server (0067) in place of remix-serve's adapter, the bare React Router baseline (0071).
 */
export const PARTLY_SUPERSEDED: Record<string, { by: string; reason: string }> = {
  "docs/decisions/0031-bench-route-count.md": {
    by: "0071",
    reason:
      "the route counts stay; the bare baseline is React Router 8's, unpatched like the app, served by `bench/baseline/server.mjs`",
  },
  "docs/decisions/0060-one-route-wrapper-for-both-frameworks.md": {
    by: "0067",
    reason:
      "the wrapper stays for its guards, while the spans of loaders, actions and middleware are React Router's instrumentations' (0085); the request scope is opened by the app's own server (`server/app-server.ts`), not by a patch of `http.createServer`",
  },
  "docs/decisions/0064-client-refusals.md": {
    by: "0067",
    reason:
      "the refusals stay; the app's own server gives a refused request its answer (`server/refusal-answer.ts`), not a patch of the response's `write` and `end`",
  },
};

/** The record that supersedes `file` in the upgraded tree, and the status word its row gets. */
const supersedingOf = (file: string) =>
  SUPERSEDED_BY_OTHERS[file]?.by ?? PARTLY_SUPERSEDED[file]?.by ?? SUPERSEDING;
const statusWord = (file: string) => (file in PARTLY_SUPERSEDED ? "Partly superseded" : "Superseded");

/** A decision record's status paragraph replaced with a superseded one (the form docs/decisions/README.md's check reads). */
export function supersede(text: string, reason: string, by = SUPERSEDING, word = "Superseded"): string {
  const status = /^Status: [\s\S]*?(?=\n\n)/m;
  if (!status.test(text)) throw new Error("no Status paragraph");
  return text.replace(
    status,
    `Status: ${word} by ${by} in this tree, upgraded to React Router 8: ${reason}.`,
  );
}

/** The decision index with the status of each record in SUPERSEDED set to match. */
export function supersedeInIndex(index: string): string {
  let out = index;
  for (const file of [
    ...Object.keys(SUPERSEDED),
    ...Object.keys(SUPERSEDED_BY_OTHERS),
    ...Object.keys(PARTLY_SUPERSEDED),
  ]) {
    const name = path.basename(file);
    out = out.replace(
      new RegExp(
        `^(\\| \\[\\d{4}\\]\\(${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\) *\\|[^|]*\\|)[^|]*\\|`,
        "m",
      ),
      `$1 ${statusWord(file)} by ${supersedingOf(file)} |`,
    );
  }
  return out;
}

/** The prose files of the tree at `root` that the pass rewrites. */
export function proseFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, "docs")).map((name) => `docs/${name}`);
  return ["README.md", "server/adapter/README.md", ...docs].filter((file) => PROSE_FILES.test(file));
}

/** Rewrites the prose and marks the overturned decision records in the tree at `root`; the files changed. */
export function rewriteDocs(root: string): string[] {
  const edits: [string, (text: string) => string][] = [
    ...proseFiles(root).map((file): [string, (text: string) => string] => [file, rewriteProse]),
    ...Object.entries(SUPERSEDED).map(([file, reason]): [string, (text: string) => string] => [
      file,
      (text) => supersede(text, reason),
    ]),
    ...Object.entries(SUPERSEDED_BY_OTHERS).map(
      ([file, { by, reason }]): [string, (text: string) => string] => [
        file,
        (text) => supersede(text, reason, by),
      ],
    ),
    ...Object.entries(PARTLY_SUPERSEDED).map(([file, { by, reason }]): [string, (text: string) => string] => [
      file,
      (text) => supersede(text, reason, by, "Partly superseded"),
    ]),
    ["docs/decisions/README.md", supersedeInIndex],
  ];
  return edits.flatMap(([file, edit]) => {
    const full = path.join(root, file);
    const before = readFileSync(full, "utf8");
    const after = edit(before);
    if (after === before) return [];
    writeFileSync(full, after);
    return [file];
  });
}
