/**
 * What the browser downloads as JavaScript for a page, measured two ways:
 *  - declared: the scripts the HTML names (`<script src>`, `<link rel="modulepreload">`,
 *    and the `import`s of the inline module script), sized from the build's client directory;
 *  - downloaded: what Chromium really fetched, split into "initial" (requested
 *    before React hydrated the page: what a budget is about) and "after hydration"
 *    (until the network is idle). A chunk imported at run time before hydration, such
 *    as the Sentry SDK when a DSN is set, is only in the second figure.
 * Sizes: raw bytes and gzip (zlib's default level, as remix-serve's compression uses).
 * Used by the product's budget (e2e/toolchain/client-js-budget.spec.ts) and the benchmark.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser } from "@playwright/test";
export interface ScriptFile {
  /** Path on the server, e.g. `/assets/entry.client-C9jFn00r.js`. */
  path: string;
  raw: number;
  gzip: number;
  /** Holds Sentry SDK code (`__SENTRY__`, the SDK's global carrier, appears only there). */
  sentry: boolean;
}

export interface DownloadedJs {
  /** Downloaded by Chromium before hydration: the initial JS a budget is about. */
  initial: ScriptSet;
  /** Downloaded by Chromium after hydration, until the network was idle. */
  afterHydration: ScriptSet;
  /** Scripts requested from another origin, or that failed: none expected. */
  other: string[];
}

export interface ScriptSet {
  files: ScriptFile[];
  raw: number;
  gzip: number;
}

const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag)?.slice(1).find(Boolean);

/**
 * Script URLs an HTML document makes the browser load before any of its code
 * runs: `<script src>`, `<link rel="modulepreload">`, and the static imports
 * and `import("…")` calls of inline module scripts. In document order, once each.
 */
export function declaredScriptUrls(html: string): string[] {
  const urls: string[] = [];
  const tags = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>|<link\b[^>]*>/gi;
  for (const match of html.matchAll(tags)) {
    const [tag, scriptAttributes, inline] = match;
    if (scriptAttributes === undefined) {
      const rel = attribute(tag, "rel")?.toLowerCase().split(/\s+/) ?? [];
      const href = attribute(tag, "href");
      if (rel.includes("modulepreload") && href) urls.push(href);
      continue;
    }
    const src = attribute(`<script ${scriptAttributes}>`, "src");
    if (src) {
      urls.push(src);
    } else if (attribute(`<script ${scriptAttributes}>`, "type")?.toLowerCase() === "module" && inline) {
      const imports =
        /\bimport\s*(?:[\w*{}\s,$]+?\s*from\s*)?["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;
      for (const found of inline.matchAll(imports)) urls.push((found[1] ?? found[2])!);
    }
  }
  return [...new Set(urls)];
}

function sized(files: { path: string; body: Buffer }[]): ScriptSet {
  const list = files
    .map(({ path: file, body }) => ({
      path: file,
      raw: body.length,
      gzip: gzipSync(body).length,
      sentry: body.includes("__SENTRY__"),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
  return {
    files: list,
    raw: list.reduce((sum, file) => sum + file.raw, 0),
    gzip: list.reduce((sum, file) => sum + file.gzip, 0),
  };
}

/** The same-origin scripts the HTML of `origin/` declares, sized from `clientDir` (the build's `client/`). */
export async function declaredInitialJs(origin: string, clientDir: string): Promise<ScriptSet> {
  const html = await (await fetch(origin + "/")).text();
  const paths = declaredScriptUrls(html)
    .map((url) => new URL(url, origin + "/"))
    .filter((url) => url.origin === origin)
    .map((url) => url.pathname);
  return sized(paths.map((file) => ({ path: file, body: readFileSync(path.join(clientDir, file)) })));
}

// ---------------------------------------------------------------------------
// What Chromium downloads
// ---------------------------------------------------------------------------

/**
 * Loads `origin/` in a fresh context and records every JavaScript response:
 * those requested before React hydrated the document count as initial, the
 * rest (until the network is idle) as after hydration.
 */
export async function downloadedInitialJs(browser: Browser, origin: string): Promise<DownloadedJs> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts: { url: string; body: Promise<Buffer> }[] = [];
    const other: string[] = [];
    page.on("response", (response) => {
      const type = response.headers()["content-type"] ?? "";
      if (response.request().resourceType() !== "script" && !/javascript/.test(type)) return;
      if (new URL(response.url()).origin !== origin || !response.ok()) {
        other.push(`${response.status()} ${response.url()}`);
        return;
      }
      const body = response.body();
      // Read only for the scripts measured below (those in by network idle): the
      // body of one that answers later fails when the context closes, unread.
      body.catch(() => {});
      scripts.push({ url: response.url(), body });
    });
    page.on("requestfailed", (request) => {
      if (request.resourceType() === "script") other.push(`failed ${request.url()}`);
    });
    // Hydrated: React has attached its fiber to <body> (rendered by the root Layout).
    // The page itself watches for it, in back-to-back tasks, and notes
    // performance.now() of that moment as the cut-off. Watching from here
    // (one round trip per check) noticed it tens of milliseconds late on a busy
    // machine, long enough for work the app defers to "idle after hydration"
    // to be counted as initial; and while the page is busy checking it is never
    // idle, so such work cannot start before the moment is noted.
    await page.addInitScript(() => {
      const channel = new MessageChannel();
      const deadline = performance.now() + 15_000;
      channel.port1.onmessage = () => {
        if (document.body && Object.keys(document.body).some((key) => key.startsWith("__reactFiber$"))) {
          (window as unknown as { __hydratedAt: number }).__hydratedAt = performance.now();
        } else if (performance.now() < deadline) {
          channel.port2.postMessage(null);
        }
      };
      channel.port2.postMessage(null);
    });
    await page.goto(origin + "/", { waitUntil: "commit" });
    const hydratedAt = (await (
      await page.waitForFunction(
        () => (window as unknown as { __hydratedAt?: number }).__hydratedAt,
        undefined,
        {
          timeout: 15_000,
        },
      )
    ).jsonValue()) as number;
    await page.waitForLoadState("networkidle");
    const started = new Map(
      await page.evaluate(() =>
        performance.getEntriesByType("resource").map((entry) => [entry.name, entry.startTime] as const),
      ),
    );
    const unique = [...new Map(scripts.map((script) => [script.url, script])).values()];
    const bodies = await Promise.all(unique.map(async ({ url, body }) => ({ url, body: await body })));
    const split = (initial: boolean) =>
      sized(
        bodies
          .filter(({ url }) => (started.get(url) ?? 0) <= hydratedAt === initial)
          .map(({ url, body }) => ({ path: new URL(url).pathname, body })),
      );
    return { initial: split(true), afterHydration: split(false), other };
  } finally {
    await context.close();
  }
}
