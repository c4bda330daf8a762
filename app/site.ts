/**
 * What the app says about itself to browsers, search engines and link
 * previews: the one place a team edits its name and description. The root
 * route's `meta` puts them on every page that does not set its own (the
 * start page, the 404 and error pages); a route with its own `meta` builds
 * on `siteMeta`. Which paths crawlers may fetch is `public/robots.txt`.
 */
export const site = {
  title: "Remix + Sentry scaffold",
  description:
    "A server-rendered Remix app with error pages, error digests, structured logs, Sentry and security headers in place.",
} as const;

/** The page's title (the site's name unless a page names itself) and the site's description. */
export function siteMeta(pageTitle?: string) {
  return [
    { title: pageTitle ? `${pageTitle} · ${site.title}` : site.title },
    { name: "description", content: site.description },
  ];
}
