/** Navigations and fetches as React Router starts them, before it requests anything (docs/decisions/0085). */
import type { ClientInstrumentation } from "react-router";

export type Ended = (failed: boolean) => void;

export interface RouterOperations {
  navigation(target: URL): Ended | undefined;
  fetch(target: URL): Ended | undefined;
}

let listener: RouterOperations | undefined;

export function onRouterOperations(operations: RouterOperations | undefined): void {
  listener = operations;
}

const pageOf = ({ pathname, search }: URL) => pathname + search;
const urlOf = (to: string) => new URL(to, window.location.href);
const shownUrl = () => new URL(window.location.href);

/** `HydratedRouter`'s `instrumentations`; call before hydrating, so the history's events reach this first. */
export function routerInstrumentation(): ClientInstrumentation {
  let shown = pageOf(shownUrl());
  // Back and forward never pass `router.navigate`; the router's own listener comes after this one.
  window.addEventListener("popstate", () => {
    const target = shownUrl();
    if (pageOf(target) === shown) return;
    shown = pageOf(target);
    listener?.navigation(target);
  });
  return {
    router(router) {
      router.instrument({
        async navigate(call, { to, currentUrl, formMethod }) {
          // A number is a step through the history, started by its popstate; a new hash loads nothing.
          const target = typeof to === "number" ? undefined : urlOf(to);
          const hashOnly = target?.hash && !formMethod && pageOf(target) === pageOf(urlOf(currentUrl));
          const ended = target && !hashOnly ? listener?.navigation(target) : undefined;
          const { status } = await call();
          shown = pageOf(shownUrl());
          ended?.(status === "error");
        },
        async fetch(call, { href }) {
          const ended = listener?.fetch(urlOf(href));
          ended?.((await call()).status === "error");
        },
      });
    },
  };
}
