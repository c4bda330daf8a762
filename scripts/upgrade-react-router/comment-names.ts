/**
 * The runtime files' comments (app/, server/) name the framework the tree runs: after the
 * upgrade, "Remix" in a comment becomes "React Router", except where a comment speaks of Remix 2
 * itself ("Remix 2", "on Remix 2"). Strings are left alone: the scaffold's name and what the
 * tests expect are not the framework's.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scriptComments } from "../repo-paths/references";

/** "Remix" and "Remix's", not "Remix 2" nor a name it starts (`remix-…`, "Remixed"). */
const REMIX_WORD = /\bRemix(?!\s+2\b|[\w-])/g;

/** Runtime source files: the app and its server. */
export const RUNTIME_FILE = /^(app|server)\/.*\.(ts|tsx|mjs)$|^server\.mjs$/;

export function reactRouterInComments(fileName: string, source: string): string {
  let out = source;
  for (const { text } of scriptComments(source, fileName)) {
    const renamed = text.replace(REMIX_WORD, "React Router");
    if (renamed !== text) out = out.split(text).join(renamed);
  }
  return out;
}

/** Rewrites the comments of the runtime files among `files` under `root`; the files changed. */
export function renameFrameworkInComments(root: string, files: readonly string[]): string[] {
  return files.filter((file) => {
    if (!RUNTIME_FILE.test(file)) return false;
    const full = path.join(root, file);
    const before = readFileSync(full, "utf8");
    const after = reactRouterInComments(file, before);
    if (after !== before) writeFileSync(full, after);
    return after !== before;
  });
}
