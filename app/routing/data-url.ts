/** On Remix 2 `/a/b.data` loads `/a/b` and `/_root.data` loads `/`; the React Router 8 upgrade replaces this file. */
export function pagePathOfDataUrl(url: URL): string | undefined {
  if (!url.pathname.endsWith(".data")) return undefined;
  const pathname = url.pathname.slice(0, -".data".length);
  return pathname === "/_root" ? "/" : pathname;
}

export const ROOT_DATA_PATH = "/_root.data";
