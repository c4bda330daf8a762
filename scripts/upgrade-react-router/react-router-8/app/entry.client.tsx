/**
 * Browser entry: start monitoring (only when configured), then hydrate.
 * Thin on purpose; monitoring lives in app/monitoring/, the digest lookup in app/errors/.
 */
import { HydratedRouter } from "react-router/dom";
import { startTransition, StrictMode, useEffect, type ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import {
  reportRootError,
  startClientMonitoring,
  startDeferredClientMonitoring,
} from "~/monitoring/client-monitoring";
import { ErrorDigestContext } from "~/errors/error-page";
import { createBrowserDigestLookup } from "~/errors/digest-lookup.client";
import { getBrowserEnv } from "~/document/public-env";

const digests = createBrowserDigestLookup();

/** Its effect runs once the whole page has hydrated (a parent's effects run after its children's). */
function AfterHydration({ children }: { children: ReactNode }) {
  useEffect(() => startDeferredClientMonitoring(getBrowserEnv()), []);
  return children;
}

// Sentry starts before hydration so errors during hydration are reported too.
// If its chunk cannot load, the page still hydrates, unmonitored.
void startClientMonitoring(getBrowserEnv())
  .catch((error: unknown) => console.error("Monitoring did not start:", error))
  .then(() =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <AfterHydration>
            <ErrorDigestContext.Provider value={digests.lookup}>
              <HydratedRouter unstable_fetch={digests.fetch} />
            </ErrorDigestContext.Provider>
          </AfterHydration>
        </StrictMode>,
        {
          // React 19 no longer throws a render error no boundary caught, and
          // reports one it recovered from (a hydration mismatch) on its own:
          // each is one event (reportRootError). `onCaughtError` keeps React's
          // default (console.error): what a route's boundary catches, the
          // boundary reports itself (GeneralErrorBoundary), as it does a failed
          // client loader, which never reaches React; reporting it here too
          // would make two events of one error.
          onUncaughtError: reportRootError,
          onRecoverableError: reportRootError,
        },
      );
    }),
  );
