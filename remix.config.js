// @ts-check
/**
 * Remix's options, in one place: `vite.config.ts` hands them to the Remix
 * Vite plugin (the test and benchmark builds change only `buildDirectory`,
 * see e2e/fixtures/vite.config.ts; the bare baseline takes the future flags).
 */

/** @type {import("@remix-run/dev").VitePluginConfig & { buildDirectory: string }} */
export const remixOptions = {
  buildDirectory: "build",
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
