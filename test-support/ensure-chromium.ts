/**
 * Runs before the e2e suite: makes sure a Chromium is there, and says which.
 * Tries, in order: PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, Debian's headless shell or
 * /usr/bin/chromium (test-support/chromium.ts), Playwright's own browser; then
 * `npx playwright install chromium`; then, when root with apt-get, Debian's
 * `chromium-headless-shell`. Stops with one line if none works.
 */
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import { DEBIAN_HEADLESS_SHELL, systemChromium } from "./chromium";

function playwrightChromium(): string | undefined {
  try {
    const path = chromium.executablePath();
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

function attempt(description: string, command: string): boolean {
  console.log(`e2e: no Chromium found; trying ${description} (${command})`);
  try {
    execSync(command, { stdio: "inherit", timeout: 10 * 60_000 });
    return true;
  } catch {
    return false;
  }
}

function found(): string | undefined {
  return systemChromium() ?? playwrightChromium();
}

let browser = found();
if (!browser && attempt("Playwright's download", "npx playwright install chromium")) browser = found();
const isRoot = process.getuid?.() === 0;
if (!browser && isRoot && existsSync("/usr/bin/apt-get")) {
  if (
    attempt("Debian's package", "apt-get update && apt-get install -y chromium-headless-shell") &&
    existsSync(DEBIAN_HEADLESS_SHELL)
  ) {
    browser = DEBIAN_HEADLESS_SHELL;
  }
}
if (!browser) {
  console.error(
    "e2e: no Chromium available: run `npx playwright install chromium`, or `apt-get install chromium`, or set PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH",
  );
  process.exit(1);
}
console.log(`e2e: using Chromium at ${browser}`);
