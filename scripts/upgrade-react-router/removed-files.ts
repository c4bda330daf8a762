/**
 * What the upgrade (run.ts) removes of the Remix 2 tree and what it renames; read by the checks that
 * look at the upgraded tree before it exists (listed-patches.test.ts).
 */

/** Remix 2's own files, which React Router 8 has no use for (their replacements, if any, are in react-router-8/). */
export const REMOVED = [
  "remix.config.js",
  "server/adapter/remix.d.ts",
  // The patch of Remix's router and its tests: React Router 8 runs its own matching, unpatched
  // (docs/decisions/0071), so nothing is patched and patch-package goes (manifest.ts).
  "patches",
  "bench/baseline/unpatched-packages.mjs",
  // The shape test of the global fetch Remix's single-fetch client calls: on React Router 8 the
  // digest lookup is given to HydratedRouter as its fetch (react-router-8/app/errors/), nothing wrapped.
  "app/errors/digest-lookup.test.ts",
  // A fact about Remix 2's encoder; React Router carries its own turbo-stream (SECURITY.md).
  "server/adapter/turbo-stream-errors.test.ts",
  // Target E of the benchmark: the documented setup of @sentry/remix, which goes.
  "bench/documented",
  // remix-serve's run-time patches: the app runs its own server (react-router-8/server.mjs and server/;
  // docs/decisions/0067), which calls the pre-app handlers, logs and closes itself.
  "boot.mjs",
  "server/adapter/http-server.ts",
  "server/adapter/http-server.test.ts",
  "server/adapter/remix-serve-command.test.ts",
  "server/adapter/remix-serve-test-boot.ts",
  "server/adapter/remix-serve-test-build.ts",
  // remix-serve's second static lookup; the app's own server makes one (react-router-8/server/app-server.ts).
  "server/adapter/public-lookup.ts",
  // remix-serve's client-folder lookup; the app's own server gates its own (server/client-files.ts).
  "server/adapter/built-file-lookup.ts",
  // remix-serve's swap of Node's fetch for @remix-run/node's undici; the app's own server makes none.
  "server/adapter/node-fetch.ts",
  "server/adapter/stdout.ts",
  "server/adapter/stdout.test.ts",
  "server/log-lines.ts",
  "server/log-lines.test.ts",
  "server/adapter/server-close.ts",
  "server/adapter/server-close.test.ts",
  "server/adapter/refusal-response.ts",
  "server/adapter/refusal-response.test.ts",
  // The app's own server loads its own before Sentry starts (react-router-8/server/adapter/server-modules-first.ts).
  "server/adapter/serve-modules-first.ts",
  "server/adapter/serve-modules-first.test.ts",
  // remix-serve's Express adapter reading what the pre-app handlers wrote; the app's own server
  // reads the request itself (react-router-8/server/framework-handler.ts).
  "server/adapter/pre-app-writes.test.ts",
  // Remix 2's loader and action spans, and the navigations read from its router's subscribers: React
  // Router 8's instrumentations give both (react-router-8/app/monitoring/router-instrumentation.server.ts,
  // react-router-8/app/routing/router-operations.client.ts; docs/decisions/0085).
  "app/monitoring/data-function-spans.server.ts",
  "app/routing/navigations.client.ts",
  "app/routing/navigations.client.test.ts",
  "test-support/navigation-cases.ts",
];

/** Files whose names say Remix, renamed (their importers by source-rewrite.ts's TOKENS). */
export const RENAMED: Record<string, string> = {};
