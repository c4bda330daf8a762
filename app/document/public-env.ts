import type { PublicEnv } from "~/env.server";

/** For an inline `<script>`: no `</script>` or `<!--` can close or confuse the element. */
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

export function getBrowserEnv(): PublicEnv | undefined {
  return typeof window === "undefined" ? undefined : window.ENV;
}
