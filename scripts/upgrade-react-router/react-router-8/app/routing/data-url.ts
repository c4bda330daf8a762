/** As React Router 8's getNormalizedPath: `/a/_.data` loads `/a/`, `/_.data` loads `/` (`/_root.data`: a page `/_root`). */
export function pagePathOfDataUrl(url: URL): string | undefined {
  const { pathname } = url;
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  if (pathname.endsWith(".data")) return pathname.slice(0, -".data".length);
  return undefined;
}

export const ROOT_DATA_PATH = "/_.data";
