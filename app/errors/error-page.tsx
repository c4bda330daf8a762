import { useLocation, useRouteError } from "@remix-run/react";
import { createContext, useContext, useEffect } from "react";
import { reportClientError } from "~/monitoring/client-monitoring";
import { DIGEST_ATTRIBUTE } from "./digest";
import { classifyRouteError, CLIENT_ERROR_HEADING, SERVER_ERROR_HEADING } from "./error-view";

/**
 * How an error boundary finds the digest of the server error it shows: by the
 * page's pathname, from what the server rendered or a failed `.data` response
 * carried (the digest protocol: digest.ts).
 */
export type DigestLookup = (pathname: string) => string | undefined;

export const ErrorDigestContext = createContext<DigestLookup>(() => undefined);

function useErrorDigest(): string | undefined {
  const lookup = useContext(ErrorDigestContext);
  return lookup(useLocation().pathname);
}

function DigestLine({ digest }: { digest: string | undefined }) {
  if (!digest) return null;
  return (
    <p>
      Digest: <code {...{ [DIGEST_ATTRIBUTE]: digest }}>{digest}</code>
    </p>
  );
}

/** The error page of every route: never an error's message or stack in production. */
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
        <DigestLine digest={view.digest} />
      </main>
    );
  }
  if (view.kind === "server") {
    return (
      <main className="error-page">
        <h1>{SERVER_ERROR_HEADING}</h1>
        <DigestLine digest={view.digest} />
      </main>
    );
  }
  return (
    <main className="error-page">
      <h1>{CLIENT_ERROR_HEADING}</h1>
    </main>
  );
}
