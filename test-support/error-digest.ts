/**
 * The digest an error page shows, read from its HTML, for specs that fetch
 * pages without a browser (the protocol itself: app/errors/digest.ts).
 */
import { DIGEST_ATTRIBUTE } from "../app/errors/digest";

/** The value of the page's digest attribute, or undefined when the page shows none. */
export function digestInHtml(html: string): string | undefined {
  return new RegExp(`${DIGEST_ATTRIBUTE}="([^"]*)"`).exec(html)?.[1];
}
