import { useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { DIGEST_ATTRIBUTE, useErrorDigest } from "~/monitoring/error-digest";
import { classifyRouteError, CLIENT_ERROR_HEADING, SERVER_ERROR_HEADING } from "~/monitoring/route-error";
import { reportClientError } from "~/monitoring/client-monitoring";

/**
 * The error page of every route. It never shows an error's message or stack
 * in production: a thrown Response shows its status and a fixed short text,
 * a server error shows its digest, a client error the generic fallback.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const digest = useErrorDigest();
  const view = classifyRouteError(error, { onServer: typeof document === "undefined", digest });

  useEffect(() => {
    // Only the browser reports browser errors; server errors were reported
    // (once) by the server, and thrown Responses are answers, not faults.
    if (view.kind === "client") reportClientError(error);
  }, [error, view.kind]);

  if (view.kind === "response") {
    return (
      <main className="error-page">
        <h1>{view.status}</h1>
        <p>{view.text}</p>
      </main>
    );
  }
  if (view.kind === "server") {
    return (
      <main className="error-page">
        <h1>{SERVER_ERROR_HEADING}</h1>
        {view.digest ? (
          <p>
            Digest: <code {...{ [DIGEST_ATTRIBUTE]: view.digest }}>{view.digest}</code>
          </p>
        ) : null}
      </main>
    );
  }
  return (
    <main className="error-page">
      <h1>{CLIENT_ERROR_HEADING}</h1>
    </main>
  );
}
