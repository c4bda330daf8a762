/**
 * The initial JavaScript of `/`: what the scaffold makes the browser download
 * on top of a bare Remix app, with Sentry off, on, and on with the feedback
 * widget. `npm run bench -- client-js` prints the table and fails over this
 * comparison's budget; how each figure is measured: test-support/client-js.ts.
 * The product's own absolute budget, checked inside `npm test`, is
 * e2e/toolchain/client-js-budget.ts. See bench/README.md.
 */
import path from "node:path";
import type { Browser } from "@playwright/test";
import { FRAMEWORK, FRAMEWORK_NAME } from "../test-support/framework";
import type { Recorder } from "../test-support/sentry-recorder";
import {
  declaredInitialJs,
  downloadedInitialJs,
  type DownloadedJs,
  type ScriptSet,
} from "../test-support/client-js";
import { BASELINE_DIR, ROOT, startAppServer, startBaseline, type BenchServer } from "./support/servers";

export { declaredScriptUrls } from "../test-support/client-js";
export type { ScriptFile, ScriptSet } from "../test-support/client-js";

export interface VariantResult extends DownloadedJs {
  id: VariantId;
  name: string;
  declared: ScriptSet;
}

/**
 * In gzip bytes over the baseline's initial JS (1 KB = 1000 bytes, as Vite prints sizes). On React
 * Router 8 the same app code measures more over its baseline (bench/README.md, "Client
 * JavaScript"); each limit keeps about the headroom it has on Remix 2.
 */
export const BUDGET =
  FRAMEWORK === "remix-2"
    ? ({ sentryOff: 3_000, sentryOn: 40_000 } as const)
    : ({ sentryOff: 5_000, sentryOn: 44_000 } as const);

// ---------------------------------------------------------------------------
// Variants
// ---------------------------------------------------------------------------

export type VariantId = "baseline" | "off" | "on" | "feedback";

interface Variant {
  id: VariantId;
  name: string;
  clientDir: string;
  start(recorder: Recorder): Promise<BenchServer>;
}

/** The app variants run the default production build (`build/`): what ships. */
const APP_CLIENT_DIR = path.join(ROOT, "build/client");

export const VARIANTS: Variant[] = [
  {
    id: "baseline",
    name: `bare ${FRAMEWORK_NAME} (bench/baseline)`,
    clientDir: path.join(BASELINE_DIR, "build/client"),
    start: () => startBaseline(),
  },
  {
    id: "off",
    name: "app, Sentry off",
    clientDir: APP_CLIENT_DIR,
    start: () => startAppServer("off", { build: "build" }),
  },
  {
    id: "on",
    name: "app, Sentry on",
    clientDir: APP_CLIENT_DIR,
    start: (recorder) => startAppServer("on", { build: "build", env: { SENTRY_DSN: recorder.dsn() } }),
  },
  {
    id: "feedback",
    name: "app, Sentry on + feedback",
    clientDir: APP_CLIENT_DIR,
    start: (recorder) =>
      startAppServer("feedback", {
        build: "build",
        env: { SENTRY_DSN: recorder.dsn(), SENTRY_FEEDBACK: "on" },
      }),
  },
];

/** Starts the variant's server, measures `/` both ways, stops the server. */
export async function measureVariant(
  browser: Browser,
  variant: Variant,
  recorder: Recorder,
): Promise<VariantResult> {
  const server = await variant.start(recorder);
  try {
    const declared = await declaredInitialJs(server.url, variant.clientDir);
    const downloaded = await downloadedInitialJs(browser, server.url);
    return { id: variant.id, name: variant.name, declared, ...downloaded };
  } finally {
    // Nothing left to flush or finish: no need to wait out the app's shutdown grace.
    await server.stop(1_000);
  }
}

// ---------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const signedKb = (bytes: number) => `${bytes >= 0 ? "+" : "−"}${(Math.abs(bytes) / 1000).toFixed(1)} KB`;

export interface BudgetCheck {
  what: string;
  measured: number;
  limit: number;
  met: boolean;
}

/** The issue's three rules, on the initial JS downloaded (gzip). */
export function budgetChecks(results: VariantResult[]): BudgetCheck[] {
  const gzip = (id: VariantId) => results.find((result) => result.id === id)?.initial.gzip ?? NaN;
  const base = gzip("baseline");
  return [
    { what: "Sentry off − baseline", measured: gzip("off") - base, limit: BUDGET.sentryOff },
    { what: "Sentry on − baseline", measured: gzip("on") - base, limit: BUDGET.sentryOn },
    { what: "feedback on − Sentry on", measured: gzip("feedback") - gzip("on"), limit: 0 },
  ].map((check) => ({ ...check, met: check.measured <= check.limit }));
}

export function clientJsReport(results: VariantResult[]): string {
  const base = results.find((result) => result.id === "baseline");
  const lines = [
    "| variant | declared in HTML raw / gzip | initial (before hydration) raw / gzip | files | gzip vs baseline | after hydration gzip |",
    "| --- | --: | --: | --: | --: | --: |",
  ];
  for (const r of results) {
    lines.push(
      `| ${r.name} | ${kb(r.declared.raw)} / ${kb(r.declared.gzip)} | ${kb(r.initial.raw)} / ${kb(r.initial.gzip)} | ` +
        `${r.initial.files.length} | ${base ? signedKb(r.initial.gzip - base.initial.gzip) : "n/a"} | ` +
        `${kb(r.afterHydration.gzip)} |`,
    );
  }
  lines.push("", "| budget (initial JS, gzip) | measured | limit | |", "| --- | --: | --: | --- |");
  for (const check of budgetChecks(results)) {
    lines.push(
      `| ${check.what} | ${signedKb(check.measured)} | ${signedKb(check.limit)} | ${check.met ? "met" : "**exceeded**"} |`,
    );
  }
  const on = results.find((result) => result.id === "on");
  const feedback = results.find((result) => result.id === "feedback");
  if (
    on &&
    feedback &&
    filesOf(on) === filesOf(feedback) &&
    on.afterHydration.gzip === feedback.afterHydration.gzip
  ) {
    lines.push("", "Feedback on downloads exactly the same scripts as Sentry on.");
  }
  const other = results.flatMap((result) => result.other.map((line) => `- ${result.name}: ${line}`));
  if (other.length) lines.push("", "Scripts from elsewhere or that failed:", ...other);
  lines.push("", "Files downloaded before hydration:", "");
  for (const r of results)
    lines.push(
      `- ${r.name}: ${r.initial.files.map((f) => `${f.path} (${kb(f.gzip)}${f.sentry ? ", Sentry SDK" : ""})`).join(", ")}`,
    );
  return lines.join("\n");
}

const filesOf = (result: VariantResult) => result.initial.files.map((file) => file.path).join(",");

// ---------------------------------------------------------------------------
// CLI: npm run bench -- client-js
// ---------------------------------------------------------------------------

export async function main() {
  const { chromium } = await import("@playwright/test");
  const { CHROMIUM_ARGS, systemChromium } = await import("../test-support/chromium");
  const { startRecorder } = await import("../test-support/sentry-recorder");
  const { BUILDS, ensureBuild } = await import("./support/builds");
  const { stopAll } = await import("./support/servers");
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const mode =
    process.env.BENCH_BUILD === "always" || process.env.BENCH_BUILD === "never"
      ? process.env.BENCH_BUILD
      : "auto";
  ensureBuild(BUILDS.baseline, mode, log);
  ensureBuild(BUILDS.production, mode, log);

  const recorder = await startRecorder();
  const browser = await chromium.launch({ executablePath: systemChromium(), args: CHROMIUM_ARGS });
  const stop = async () => {
    await browser.close();
    await stopAll();
    await recorder.close();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stop().finally(() => process.exit(130)));
  }
  try {
    const results: VariantResult[] = [];
    for (const variant of VARIANTS) {
      log(`client-js: measuring ${variant.name}`);
      results.push(await measureVariant(browser, variant, recorder));
    }
    process.stdout.write(`## Initial JavaScript of /\n\n${clientJsReport(results)}\n`);
    if (budgetChecks(results).some((check) => !check.met)) process.exitCode = 1;
  } finally {
    await stop();
  }
}
