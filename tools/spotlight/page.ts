/** Spotlight's page as its sidecar serves it (sidecar.ts). Only erasable TypeScript. */
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Spotlight's page allows itself `https://*.sentry.io`, where its own browser SDK sends (replays of
 * errors included); it reaches its sidecar at `localhost`, whatever address the page was opened at.
 */
export function narrowPage(html: string): string {
  const directive = /connect-src [^;"]*/;
  if (!directive.test(html))
    throw new Error("Spotlight's page has no connect-src to narrow (tools/spotlight/README.md)");
  return html.replace(directive, "connect-src 'self' http://localhost:*");
}

/** The page and the assets its manifest lists, as Spotlight's own command line reads them. */
export function pageFiles(packageDir: string): Record<string, Buffer> {
  const ui = path.join(packageDir, "dist/ui");
  const manifest = JSON.parse(readFileSync(path.join(ui, "manifest.json"), "utf8")) as Record<
    string,
    { file?: unknown }
  >;
  const files: Record<string, Buffer> = {};
  for (const { file } of Object.values(manifest)) {
    if (typeof file === "string") files[file] = readFileSync(path.join(ui, file));
  }
  files["index.html"] = Buffer.from(narrowPage(readFileSync(path.join(ui, "index.html"), "utf8")));
  return files;
}
