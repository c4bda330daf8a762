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
// With Sentry on, the router is created with what traces its navigations; off, none of it is downloaded.
const instrumentations = getBrowserEnv()?.SENTRY_DSN
  ? import("~/routing/router-operations.client")
      .then(({ routerInstrumentation }) => [routerInstrumentation()])
      .catch(() => undefined)
  : undefined;

/** A parent's effects run after its children's: this one once the whole page has hydrated. */
function AfterHydration({ children }: { children: ReactNode }) {
  useEffect(() => startDeferredClientMonitoring(getBrowserEnv()), []);
  return children;
}

// Before hydration so its errors are reported; if Sentry's chunk cannot load, the page still hydrates.
void startClientMonitoring(getBrowserEnv())
  .catch((error: unknown) => console.error("Monitoring did not start:", error))
  .then(() => instrumentations)
  .then((routerInstrumentations) =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <AfterHydration>
            <ErrorDigestContext.Provider value={digests.lookup}>
              <HydratedRouter unstable_fetch={digests.fetch} instrumentations={routerInstrumentations} />
            </ErrorDigestContext.Provider>
          </AfterHydration>
        </StrictMode>,
        {
          // React 19 no longer throws these itself; a caught one its boundary reports, so `onCaughtError` stays.
          onUncaughtError: reportRootError,
          onRecoverableError: reportRootError,
        },
      );
    }),
  );
