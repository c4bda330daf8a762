// Before Sentry starts, so its channel injection rewrites neither, from remix-serve's folder (docs/decisions/0098).
import { createRequire } from "node:module";

export const SERVE_MODULES = ["express", "@remix-run/express"] as const;

/** A module as remix-serve's command loads it: from its own folder. */
export const requireFromServe = (name: string): unknown =>
  createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"))(name);

export function loadServeModulesFirst(): void {
  for (const name of SERVE_MODULES) requireFromServe(name);
}
