/** `SENTRY_SPOTLIGHT` as the SDKs read it: on or off in their words, or the URL Spotlight's sidecar takes envelopes at. */

/** Spotlight's own default, and the SDKs'. */
export const DEFAULT_SPOTLIGHT_URL = "http://localhost:8969/stream";

const ON = new Set(["1", "true", "t", "yes", "y", "on"]);
const OFF = new Set(["0", "false", "f", "no", "n", "off"]);

export const SPOTLIGHT_MESSAGE =
  "must be on, off or the URL of Spotlight's sidecar such as http://localhost:8969/stream";

/** The sidecar's URL; null when off; undefined when the value is none of these. */
export function parseSpotlight(value: string): string | null | undefined {
  const word = value.trim().toLowerCase();
  if (word === "" || OFF.has(word)) return null;
  if (ON.has(word)) return DEFAULT_SPOTLIGHT_URL;
  const url = URL.parse(value.trim());
  const http = url !== null && (url.protocol === "http:" || url.protocol === "https:");
  return http && url.hostname !== "" && !url.username && !url.password ? url.href : undefined;
}
