import { isRouteErrorResponse } from "@remix-run/react";

/** The message Remix puts on every server error it sends to the browser in production. */
const SANITIZED_SERVER_ERROR_MESSAGE = "Unexpected Server Error";

/**
 * What an error boundary shows for the error it caught, one decision for every
 * boundary so pages and reporting agree: `response` (thrown on purpose),
 * `server` (reported by the server under `digest`), `client` (reported by the browser).
 */
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

/** A short text for a status; never the body of the Response (it may hold internals). */
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
  // While rendering on the server every caught error is a server error; in the
  // browser, Remix hands over server errors as `Error("Unexpected Server Error")`.
  const sanitized = error instanceof Error && error.message === SANITIZED_SERVER_ERROR_MESSAGE;
  if (context.onServer || sanitized || context.digest) {
    return { kind: "server", digest: context.digest };
  }
  return { kind: "client" };
}
