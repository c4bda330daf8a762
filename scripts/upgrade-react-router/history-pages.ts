/**
 * The pages the upgraded tree keeps as history (decision records, the upgrade's own page, the
 * benchmark's record) tell what was decided and measured on the Remix 2 tree, and so name some of
 * its files and scripts that the upgrade removes. Each such page gets one line listing those
 * names (`<!-- check-repo-paths: removed by the upgrade: … -->`, read by
 * scripts/repo-paths/check-tree.ts): the path check then holds everything else the page names, in
 * the upgraded tree as in this one.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { topLevelFolders } from "../repo-paths/check-tree";
import { referencesIn } from "../repo-paths/references";

/** The pages of history: decision records, the upgrade's page, the benchmark's record. */
export const HISTORY_PAGES =
  /^(docs\/decisions\/\d{4}-[^/]+\.md|docs\/upgrading-to-react-router-8\.md|bench\/README\.md)$/;

export interface Removed {
  /** Files and folders the upgrade removes (a folder covers what is under it). */
  paths: readonly string[];
  /** npm scripts the upgrade removes. */
  scripts: readonly string[];
}

/** The removed names a page names, as the declaration lists them. */
export function removedNamesIn(
  file: string,
  text: string,
  topLevel: ReadonlySet<string>,
  removed: Removed,
): string[] {
  const names = new Set<string>();
  for (const reference of referencesIn(file, text, topLevel)) {
    if (reference.kind === "script" && removed.scripts.includes(reference.name)) names.add(reference.name);
    if (reference.kind !== "path") continue;
    const gone = removed.paths.find(
      (name) => reference.name === name || reference.name.startsWith(`${name}/`),
    );
    if (gone) names.add(gone);
  }
  return [...names].sort();
}

/** The page with its declaration (after any it had), or unchanged when it names nothing removed. */
export function declareRemoved(
  file: string,
  text: string,
  topLevel: ReadonlySet<string>,
  removed: Removed,
): string {
  const names = removedNamesIn(file, text, topLevel, removed);
  if (!names.length) return text;
  return `${text.replace(/\n*$/, "\n")}\n<!-- check-repo-paths: removed by the upgrade: ${names.join(" ")} -->\n`;
}

/** Declares the removed names in every page of history under `root`; the files changed. */
export function declareRemovedInHistory(root: string, files: readonly string[], removed: Removed): string[] {
  const topLevel = topLevelFolders(root);
  return files
    .filter((file) => HISTORY_PAGES.test(file))
    .filter((file) => {
      const full = path.join(root, file);
      const before = readFileSync(full, "utf8");
      const after = declareRemoved(file, before, topLevel, removed);
      if (after !== before) writeFileSync(full, after);
      return after !== before;
    });
}
