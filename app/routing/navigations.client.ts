/** Navigations as they start (`window.__remixRouter`, server/adapter/README.md): `useNavigation()` is late. */

export interface NavigationLocation {
  pathname: string;
  search: string;
  hash: string;
  key: string;
  /** The router marks a location it reached by a redirect with `_isRedirect`. */
  state?: unknown;
}

interface RouterState {
  location: NavigationLocation;
  navigation: { state: "idle" | "loading" | "submitting"; location?: NavigationLocation };
}

interface NavigatingRouter {
  state: RouterState;
  subscribe(subscriber: (state: RouterState) => void): () => void;
}

export interface NavigationListener {
  started(location: NavigationLocation): void;
  /** The router shows the page it navigated to (after a redirect, another one's). */
  landed(location: NavigationLocation): void;
}

const isRedirect = (location: NavigationLocation) =>
  (location.state as { _isRedirect?: unknown } | null | undefined)?._isRedirect === true;

/** One navigation lasts until the router is idle: its redirects belong to it, a replacing navigation is new. */
export function onNavigations(listener: NavigationListener): (() => void) | undefined {
  const router = (window as { __remixRouter?: NavigatingRouter }).__remixRouter;
  if (!router) return undefined;
  let loading: string | undefined;
  let shown = router.state.location.pathname;
  return router.subscribe(({ navigation, location }) => {
    if (navigation.state !== "idle") {
      const target = navigation.location;
      if (!target || target.key === loading) return;
      const redirected = loading !== undefined && isRedirect(target);
      loading = target.key;
      if (!redirected) listener.started(target);
      return;
    }
    const navigated = loading !== undefined;
    loading = undefined;
    if (!navigated && location.pathname === shown) return;
    // A page with nothing to load is shown at once, without a navigation state.
    if (!navigated) listener.started(location);
    shown = location.pathname;
    listener.landed(location);
  });
}
