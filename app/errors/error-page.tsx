import { isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { createContext, useContext, useEffect } from "react";
import { reportClientError } from "~/monitoring/client-monitoring";
import { DIGEST_ATTRIBUTE } from "./digest";

const SANITIZED_SERVER_ERROR_MESSAGE = "Unexpected Server Error";

/** One decision for every boundary, so pages and reporting agree on who reports what. */
type RouteErrorView =
  | { kind: "response"; status: number; text: string; digest: string | undefined }
  | { kind: "server"; digest: string | undefined }
  | { kind: "client" };

export const CLIENT_ERROR_HEADING =
  "Application error: a client-side exception has occurred (see the browser console for more information).";
export const SERVER_ERROR_HEADING =
  "Application error: a server-side exception has occurred (see the server logs for more information).";
export const NOT_FOUND_TEXT = "This page could not be found.";

const STATUS_TEXT: Record<number, string> = {
  400: "The request could not be understood.",
  401: "You need to sign in to see this page.",
  403: "You are not allowed to see this page.",
  404: NOT_FOUND_TEXT,
  405: "This method is not allowed here.",
  413: "The request is too large.",
  429: "Too many requests. Please try again later.",
  500: "The server could not answer this request.",
  502: "The server could not reach a service it depends on.",
  503: "The service is unavailable. Please try again later.",
  504: "A service the server depends on did not answer in time.",
};

/** Never the body of the Response: it may hold internals. */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? STATUS_TEXT[500]! : STATUS_TEXT[400]!);
}

export function classifyRouteError(
  error: unknown,
  context: { onServer: boolean; digest: string | undefined },
): RouteErrorView {
  if (isRouteErrorResponse(error)) {
    const digest = error.status >= 500 ? context.digest : undefined;
    return { kind: "response", status: error.status, text: statusText(error.status), digest };
  }
  // On the server every caught error is ours; the browser gets them as `Error("Unexpected Server Error")`.
  const sanitized = error instanceof Error && error.message === SANITIZED_SERVER_ERROR_MESSAGE;
  if (context.onServer || sanitized || context.digest) {
    return { kind: "server", digest: context.digest };
  }
  return { kind: "client" };
}

/** By the page's pathname: the server renders the digest, or a failed `.data` response carries it. */
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
    // Server errors were reported by the server; thrown Responses are answers, not faults.
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
