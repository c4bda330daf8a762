// @ts-check
/**
 * Remix options, in one place. `vite.config.ts` hands them to the Remix Vite
 * plugin and `app/routes.ts` reads the fixture table; nothing else reads them.
 *
 * Two builds come from the same sources:
 *  - the default production build (`npm run build` → `build/`), and
 *  - the end-to-end build (`E2E_FIXTURES=1` → `build-e2e/`), which adds the
 *    routes under `e2e/fixtures/routes/`. They throw, redirect and misbehave
 *    on purpose so that the tests can prove error pages, digests and Sentry
 *    reporting. They must never be reachable in the default build, so they are
 *    added at build time instead of living in `app/routes/`.
 */

/**
 * Which fixture routes the build gets: `E2E_FIXTURES=1` all of them (the
 * end-to-end build), `E2E_FIXTURES=bench` only the pages the benchmark
 * measures (so the app has as many routes as the bare baseline it is compared
 * with: Remix's route matching costs grow with the route count), unset none.
 */
const fixtureMode =
  process.env.E2E_FIXTURES === "1" ? "e2e" : process.env.E2E_FIXTURES === "bench" ? "bench" : "none";

/**
 * Fixture routes of the end-to-end build: URL path → file under
 * `e2e/fixtures/routes/`. The default build must answer 404 for every path
 * listed here (`e2e/default-build.spec.ts` checks each one).
 */
export const fixtureRoutes = {
  "fixtures/loader-error": "loader-error.tsx",
  "fixtures/breadcrumbs": "breadcrumbs.tsx",
  "fixtures/action-error": "action-error.tsx",
  "fixtures/render-error": "render-error.tsx",
  "fixtures/client-render-error": "client-render-error.tsx",
  "fixtures/event-error": "event-error.tsx",
  "fixtures/client-loader-error": "client-loader-error.tsx",
  "fixtures/items/:id": "items.$id.tsx",
  "fixtures/not-found": "not-found.tsx",
  "fixtures/server-error-response": "server-error-response.tsx",
  "fixtures/redirect": "redirect.tsx",
  "fixtures/noise": "noise.tsx",
  "fixtures/slow": "slow.tsx",
  "fixtures/xss": "xss.tsx",
  "fixtures/action-ok": "action-ok.tsx",
  "fixtures/form": "form.tsx",
  "fixtures/form/done": "form.done.tsx",
  "fixtures/request-url": "request-url.ts",
};

/** The fixture routes of the benchmark build (bench/README.md). */
const benchRoutes = ["fixtures/items/:id", "fixtures/action-ok"];

/**
 * The benchmark's route-count dimension (bench/README.md, "Route count"):
 * `BENCH_GENERATED_ROUTES=<n>` adds n generated routes `/r<i>/items/:id` (i = 0..n-1)
 * to a benchmark build (this app's with `E2E_FIXTURES=bench`, and the bare
 * baseline's), each the items fixture under its own route id, and builds into
 * a directory of its own. Generated from the route config, never files in
 * `app/routes/`.
 */
export function benchRouteCount() {
  const value = process.env.BENCH_GENERATED_ROUTES;
  if (value === undefined || value === "") return 0;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > 10_000)
    throw new Error(`BENCH_GENERATED_ROUTES must be an integer from 0 to 10000, got ${value}`);
  return count;
}

/** The URL paths of `count` generated benchmark routes, with their route ids. */
export function benchGeneratedRoutes(/** @type {number} */ count) {
  return Array.from({ length: count }, (_, i) => ({ path: `r${i}/items/:id`, id: `bench-r${i}` }));
}

/** Generated routes of this build: only a benchmark build has them. */
export const buildGeneratedRoutes = benchGeneratedRoutes(fixtureMode === "bench" ? benchRouteCount() : 0);

/** The fixture routes this build gets (see `fixtureMode`). */
export const buildFixtureRoutes = Object.fromEntries(
  Object.entries(fixtureRoutes).filter(
    ([path]) => fixtureMode === "e2e" || (fixtureMode === "bench" && benchRoutes.includes(path)),
  ),
);

/** Route files under `app/routes/` that are not routes. */
export const ignoredRouteFiles = ["**/*.test.{ts,tsx}", "**/.*"];

/** @type {import("@remix-run/dev").VitePluginConfig} */
export const remixOptions = {
  buildDirectory:
    fixtureMode === "bench" && process.env.BENCH_GENERATED_ROUTES
      ? `build-bench-${benchRouteCount()}`
      : { e2e: "build-e2e", bench: "build-bench", none: "build" }[fixtureMode],
  // Every Remix v3 future flag, so that adopting React Router v7 later is a
  // rename and not a rewrite. v3_singleFetch makes navigations fetch
  // `<path>.data?_routes=…` and lets <Form method="post"> post to the page.
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
    v3_routeConfig: true,
  },
};
