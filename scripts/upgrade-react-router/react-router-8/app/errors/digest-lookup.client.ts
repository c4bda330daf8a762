import type { unstable_RouterFetch as RouterFetch } from "react-router/dom";
import { DIGEST_ATTRIBUTE, DIGEST_HEADER, isDigest } from "./digest";
import type { DigestLookup } from "./error-page";
import { pagePathOfDataUrl } from "~/routing/route-patterns";

/** Call once, before hydrating; its `fetch` is `HydratedRouter`'s `unstable_fetch`: no global is touched. */
export function createBrowserDigestLookup(): { lookup: DigestLookup; fetch: RouterFetch } {
  const byPath = new Map<string, string>();

  const rendered = document.querySelector(`[${DIGEST_ATTRIBUTE}]`)?.getAttribute(DIGEST_ATTRIBUTE);
  if (isDigest(rendered)) byPath.set(window.location.pathname, rendered);

  // React Router's own default is `(request) => fetch(request)`; the body is returned unread.
  const fetchNotingDigests: RouterFetch = async (request) => {
    const response = await fetch(request);
    const digest = response.headers.get(DIGEST_HEADER);
    if (isDigest(digest)) {
      const pathname = pagePathOfDataUrl(new URL(response.url || request.url, window.location.href));
      if (pathname !== undefined) byPath.set(pathname, digest);
    }
    return response;
  };

  return { lookup: (pathname) => byPath.get(pathname), fetch: fetchNotingDigests };
}
