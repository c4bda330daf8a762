/**
 * Which Chromium the e2e tests and `npm run bench -- client-js` drive:
 * `PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH`, else Debian's `/usr/bin/chromium`,
 * else Playwright's own download (`npx playwright install chromium`), the
 * usual path for users elsewhere.
 */
import { existsSync } from "node:fs";

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/** A system Chromium to use instead of Playwright's own, or undefined to use Playwright's. */
export function systemChromium(): string | undefined {
  const fromEnv = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH;
  if (fromEnv) return fromEnv;
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}

/**
 * Flags for sandboxed, offline machines: no sandbox (containers run as root),
 * no GPU, and none of Chromium's own background traffic to the internet.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
