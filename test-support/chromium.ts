/**
 * Which Chromium the e2e tests and `npm run bench -- client-js` drive:
 * `PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH`, else Debian's headless shell (package
 * `chromium-headless-shell`), else Debian's `/usr/bin/chromium`, else Playwright's own download
 * (`npx playwright install chromium`), the usual path for users elsewhere.
 *
 * The headless shell first: it is what Playwright itself runs headless tests in, the same Blink
 * without the desktop browser around it, and it costs the suite half the CPU of the full browser
 * (docs/testing.md, "Where the time goes").
 */
import { existsSync } from "node:fs";

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
/** The binary itself: the package's `/usr/bin` wrapper runs it as a child, not in its place. */
export const DEBIAN_HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

/** A system Chromium to use instead of Playwright's own, or undefined to use Playwright's. */
export function systemChromium(): string | undefined {
  const fromEnv = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH;
  if (fromEnv) return fromEnv;
  return [DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM].find((path) => existsSync(path));
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
