import type { PublicEnv } from "~/env.server";

/**
 * Serializes a value for an inline `<script>`: `<` becomes `\u003c` (so no
 * `</script>` or `<!--` can close or confuse the script element), and the two
 * JavaScript-only line terminators are escaped too.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value ?? null)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

declare global {
  interface Window {
    ENV?: PublicEnv;
  }
}

/** The browser's copy of the allowlisted settings (written into the page by the root layout). */
export function getBrowserEnv(): PublicEnv | undefined {
  return typeof window === "undefined" ? undefined : window.ENV;
}
