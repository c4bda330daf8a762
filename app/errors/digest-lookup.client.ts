import { DIGEST_ATTRIBUTE, DIGEST_HEADER, isDigest } from "./digest";
import type { DigestLookup } from "./error-page";
import { pagePathOfDataUrl } from "~/routing/route-patterns";

/** Call once, before hydrating: Remix's single-fetch client offers no hook (guard: digest-lookup.test.ts). */
export function createBrowserDigestLookup(): DigestLookup {
  const byPath = new Map<string, string>();

  const rendered = document.querySelector(`[${DIGEST_ATTRIBUTE}]`)?.getAttribute(DIGEST_ATTRIBUTE);
  if (isDigest(rendered)) byPath.set(window.location.pathname, rendered);

  const fetchBefore = window.fetch;
  window.fetch = async function fetchNotingDigests(...args: Parameters<typeof fetch>) {
    const response = await fetchBefore.apply(this, args);
    const digest = response.headers.get(DIGEST_HEADER);
    if (isDigest(digest)) {
      const pathname = pagePathOfDataUrl(new URL(response.url, window.location.href));
      if (pathname !== undefined) byPath.set(pathname, digest);
    }
    return response;
  };

  return (pathname) => byPath.get(pathname);
}
