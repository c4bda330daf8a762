/**
 * As React Router 8 reads it (its server's getNormalizedPath): a trailing slash is kept, so
 * `/a/_.data` loads `/a/` and `/_.data` loads `/`. (Remix 2's `/_root.data` is a page called `/_root` here.)
 */
export function pagePathOfDataUrl(url: URL): string | undefined {
  const { pathname } = url;
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  if (pathname.endsWith(".data")) return pathname.slice(0, -".data".length);
  return undefined;
}

export const ROOT_DATA_PATH = "/_.data";
