/**
 * `npm run test:e2e [-- --core] [Playwright's arguments]`: a Chromium made sure of, then the
 * suite in it (e2e/playwright.config.ts). `--core` runs only the core specs, what the slower
 * proofs (the upgraded tree, day one's tree, a dependency group's try) run.
 */
import "./ensure-chromium";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

/** Errors, 404s, Sentry's events, traces and logs, privacy, log lines, headers, operations, the tunnel, uploaded maps, `npm run dev`. */
const CORE_SPECS = [
  "errors/error-pages",
  "errors/not-found",
  "errors/error-events",
  "tracing/transactions",
  "tracing/navigation-trace",
  "tracing/database-spans",
  "tracing/outgoing-calls",
  "tracing/rate-bound",
  "sentry/failing-ingest",
  "sentry/logs",
  "sentry/request-context",
  "sentry/privacy",
  "sentry/tunnel",
  "sentry/uploaded-source-maps",
  "operations/request-logs",
  "operations/operations",
  "pages/security",
  "toolchain/dev-server",
].map((name) => `e2e/${name}.spec.ts`);

const args = process.argv.slice(2).flatMap((arg) => (arg === "--core" ? CORE_SPECS : [arg]));
const cli = createRequire(import.meta.url).resolve("@playwright/test/cli");
// In this process group: an interrupted run stops Playwright with it.
const result = spawnSync(process.execPath, [cli, "test", "-c", "e2e", ...args], { stdio: "inherit" });
process.exit(result.status ?? 1);
