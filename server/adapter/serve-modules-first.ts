// Before Sentry starts, so its channel injection rewrites neither, from remix-serve's folder (docs/decisions/0098).
import { createRequire } from "node:module";

export const SERVE_MODULES = ["express", "@remix-run/express"] as const;

export function loadServeModulesFirst(): void {
  const serve = createRequire(import.meta.url).resolve("@remix-run/serve/package.json");
  const requireFromServe = createRequire(serve);
  for (const name of SERVE_MODULES) requireFromServe(name);
}
