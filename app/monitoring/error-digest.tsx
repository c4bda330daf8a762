import { useLocation } from "@remix-run/react";
import { createContext, useContext } from "react";

/**
 * How an error boundary finds the digest of the server error it shows.
 *
 * Remix replaces every server error with `Error("Unexpected Server Error")`
 * before it leaves the server, so the digest cannot ride on the error. It
 * travels beside it instead, keyed by the page's pathname:
 *  - server render: `entry.server` looks up the digest `handleError` gave the request;
 *  - hydration: `entry.client` reads it back from the server-rendered page;
 *  - single-fetch navigations and form posts: `entry.client` picks it up from
 *    the `X-Error-Digest` header of the failed `.data` response.
 */
export type DigestLookup = (pathname: string) => string | undefined;

export const ErrorDigestContext = createContext<DigestLookup>(() => undefined);

export function useErrorDigest(): string | undefined {
  const lookup = useContext(ErrorDigestContext);
  return lookup(useLocation().pathname);
}

/** Attribute of the element that shows the digest; `entry.client` reads it before hydrating. */
export const DIGEST_ATTRIBUTE = "data-error-digest";
