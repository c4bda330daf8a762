/** The one place a team edits its name and description; a route with its own `meta` uses `siteMeta`. */
export const site = {
  title: "Remix + Sentry scaffold",
  description:
    "A server-rendered Remix app with error pages, error digests, structured logs, Sentry and security headers in place.",
} as const;

export function siteMeta(pageTitle?: string) {
  return [
    { title: pageTitle ? `${pageTitle} · ${site.title}` : site.title },
    { name: "description", content: site.description },
  ];
}
