/**
 * Browser entry: start monitoring (only when configured), then hydrate.
 * Thin on purpose; the decisions live in app/monitoring/.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { startClientMonitoring } from "~/monitoring/client-monitoring";
import { ErrorDigestContext } from "~/monitoring/error-digest";
import { createBrowserDigestLookup } from "~/monitoring/error-digest.client";
import { getBrowserEnv } from "~/utils/public-env";

const digests = createBrowserDigestLookup();

// Sentry starts before hydration so errors during hydration are reported too.
// If its chunk cannot load, the page still hydrates, unmonitored.
void startClientMonitoring(getBrowserEnv())
  .catch((error: unknown) => console.error("Monitoring did not start:", error))
  .then(() =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <ErrorDigestContext.Provider value={digests}>
            <RemixBrowser />
          </ErrorDigestContext.Provider>
        </StrictMode>,
      );
    }),
  );
