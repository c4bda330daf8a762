/**
 * The product's client JavaScript budget: gzip bytes of the JavaScript Chromium
 * downloads for `/` before React hydrates it (1 KB = 1000 bytes, as Vite prints
 * sizes), checked by e2e/toolchain/client-js-budget.spec.ts on the real production build
 * (`build/`) inside `npm test`. Hydration waits for every byte of it, so it is
 * the part of a page's weight a visitor on a slow phone feels first.
 *
 * To raise it: change the figure here in the same commit as what needed it,
 * and say in the message what the bytes buy; the spec's report (attached to
 * the Playwright result as initial-js.md) shows what is downloaded and how big.
 *
 * Set from bare Remix's size plus what the scaffold is allowed on top of it
 * (bench/README.md, "Client JavaScript").
 */
export const CLIENT_JS_BUDGET = {
  /** `/` without SENTRY_DSN: no Sentry code may be downloaded at all. */
  sentryOff: 90_000,
  /** `/` with SENTRY_DSN set: the error-reporting SDK loads before hydration. */
  sentryOn: 127_000,
} as const;
