/**
 * Holds what a tree's files name (references.ts) against the tree itself: a
 * path must exist, an `npm run` script must be in package.json.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { referencesIn } from "./references";

/**
 * Never read and never named as a top-level folder: generated output and
 * installed packages (as in .gitignore), and git's own.
 */
const GENERATED =
  /^(\.git|node_modules|\.cache|\.react-router|test-results|playwright-report|build[^/]*|bench\/results|bench\/baseline\/build[^/]*)(\/|$)|(^|\/)node_modules(\/|$)/;

/**
 * The files the upgrade to React Router 8 puts in place describe the upgraded
 * tree: what they name exists there, in the tree or among the upgrade's own
 * files, and may not exist here yet (React Router's config file, say).
 */
export const UPGRADE_OVERLAY = "scripts/upgrade-react-router/react-router-8/";

/**
 * Top-level folders the scaffold has and day one's init removes: on the trimmed tree a path
 * under one still counts as a path, and names what is gone (the scaffold's own are written
 * `scaffold:<path>`, which counts as none).
 */
export const FORMER_TOP_LEVEL = ["bench", ".ci"];

/**
 * Pages of history, which may name by itself a file that went (and say so in words): decision
 * records, the upgrade's page (it describes both trees), the benchmark's record of both trees.
 * They may name a file of the upgraded tree too, one the upgrade puts in place (UPGRADE_OVERLAY).
 */
export const HISTORY = /^docs\/(decisions\/|upgrading-to-|scaffold-measurements\.md$)|^bench\/README\.md$/;

export interface Problem {
  file: string;
  line: number;
  message: string;
}

export function filesUnder(root: string, prefix = ""): string[] {
  return readdirSync(path.join(root, prefix)).flatMap((name) => {
    const relative = prefix + name;
    if (GENERATED.test(relative)) return [];
    return statSync(path.join(root, relative)).isDirectory() ? filesUnder(root, `${relative}/`) : [relative];
  });
}

/** The folders at the top of the tree that a path in prose or a comment may start with. */
export function topLevelFolders(root: string): Set<string> {
  return new Set(
    readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !GENERATED.test(entry.name))
      .map((entry) => entry.name),
  );
}

/**
 * A line `<!-- check-repo-paths: creates <path> <path> -->` lists the files a
 * walk-through has you create (docs/adding-a-route.md).
 */
function declaredNew(source: string): string[] {
  return [...source.matchAll(/^<!-- check-repo-paths: creates ([^>]*?)\s*-->$/gm)].flatMap((match) =>
    match[1]!.split(/\s+/),
  );
}

/**
 * A line `<!-- check-repo-paths: removed by the upgrade: <name> <name> -->`, which the React
 * Router 8 upgrade writes into the pages it keeps as history (decision records, its own page, the
 * benchmark's record), lists what they name of the Remix 2 tree that the upgrade removed: paths
 * (a folder covers what is under it) and npm scripts. `removed with the upgrade:`, which day one's
 * init writes when it removes the upgrade, lists what they name of the upgraded tree. Nothing else
 * is let through.
 */
function declaredRemoved(source: string): string[] {
  return [
    ...source.matchAll(/^<!-- check-repo-paths: removed (?:by|with) the upgrade: ([^>]*?)\s*-->$/gm),
  ].flatMap((match) => match[1]!.split(/\s+/));
}

export function checkTree(root: string): Problem[] {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const scripts = new Set(Object.keys(pkg.scripts ?? {}));
  const topLevel = new Set([...topLevelFolders(root), ...FORMER_TOP_LEVEL]);
  const exists = (name: string, base = "") => {
    const full = path.join(root, base, name);
    if (existsSync(full)) return true;
    // `docs/decisions/0058` names decision record 0058-….md.
    return (
      /^docs\/decisions\/\d{4}$/.test(name) &&
      existsSync(path.dirname(full)) &&
      readdirSync(path.dirname(full)).some((file) => file.startsWith(`${path.basename(name)}-`))
    );
  };
  const problems: Problem[] = [];
  const all = filesUnder(root);
  const basenames = new Set(all.map((file) => path.posix.basename(file)));
  for (const file of all) {
    const source = readFileSync(path.join(root, file), "utf8");
    const created = declaredNew(source);
    const removed = declaredRemoved(source);
    const fine = (name: string) =>
      GENERATED.test(name) ||
      exists(name) ||
      ((file.startsWith(UPGRADE_OVERLAY) || HISTORY.test(file)) && exists(name, UPGRADE_OVERLAY)) ||
      created.some((prefix) => name.startsWith(prefix)) ||
      removed.some((gone) => name === gone || name.startsWith(gone.endsWith("/") ? gone : `${gone}/`));
    // A file named by itself must be some file of the tree's: a walk-through's new files and
    // history (decision records, the upgrade's page, which describes both trees) are let through.
    const fineFile = (name: string) =>
      basenames.has(path.posix.basename(name)) ||
      created.length > 0 ||
      HISTORY.test(file) ||
      removed.some((gone) => path.posix.basename(gone) === path.posix.basename(name));
    for (const reference of referencesIn(file, source, topLevel)) {
      if (reference.kind === "file" && !fineFile(reference.name))
        problems.push({
          file,
          line: reference.line,
          message: `names ${reference.name}, which no file of the tree is`,
        });
      if (reference.kind === "path" && !fine(reference.name))
        problems.push({
          file,
          line: reference.line,
          message: `names ${reference.name}, which does not exist`,
        });
      if (reference.kind === "script" && !scripts.has(reference.name) && !removed.includes(reference.name))
        problems.push({
          file,
          line: reference.line,
          message: `names npm run ${reference.name}, which package.json does not have`,
        });
    }
  }
  return problems;
}
