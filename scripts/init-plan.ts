/**
 * What `npm run init` does to the tree, as pure functions (scripts/init.ts
 * applies them): which paths and npm scripts go, and how every remaining file
 * is rewritten so that nothing names what went (docs/day-one.md).
 */
import path from "node:path";
import { HISTORY } from "./repo-paths/check-tree";
import { referencesIn } from "./repo-paths/references";

export interface InitOptions {
  name: string;
  keepUpgrade: boolean;
  allowDirty: boolean;
}

export const USAGE = "usage: npm run init -- --name <app-name> [--keep-upgrade] [--allow-dirty]";
const SCAFFOLD_NAMES = ["remix-sentry-scaffold", "Remix + Sentry scaffold"];

/** bench/README.md holds the dated figures docs and records cite: it moves instead of going. */
export const MEASUREMENTS = { from: "bench/README.md", to: "docs/scaffold-measurements.md" };
export const MEASUREMENTS_NOTE = [
  "This page was the scaffold's `scaffold:bench/README.md`. Day one's init removed the benchmark it describes;",
  "the figures stay, as the record that the docs and decision records cite. The commands it names",
  "are the scaffold's (\"the scaffold's … script\"), to be run in the scaffold's repository.",
].join("\n");

/** What proves the scaffold rather than the product, and init itself. */
const REMOVED = [
  "bench/",
  ".github/workflows/bench-goals.yml",
  ".ci/",
  "docs/day-one.md",
  "scripts/init.ts",
  "scripts/init-plan.ts",
];
const REMOVED_TOO = ["scripts/init-plan.test.ts", "scripts/test-init.ts"];
// scripts/copied-tree.ts: the steps of the upgrade's test, which test-init.ts (removed anyway) shares.
const UPGRADE = [
  "scripts/upgrade-react-router/",
  "scripts/copied-tree.ts",
  "docs/upgrading-to-react-router-",
];
const SCRIPTS = /^(bench|init)$/;
const UPGRADE_SCRIPTS = /^(upgrade:react-router|test:upgrade)$/;

export function parseArgs(argv: string[]): InitOptions | { error: string } {
  const options: InitOptions = { name: "", keepUpgrade: false, allowDirty: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--keep-upgrade") options.keepUpgrade = true;
    else if (arg === "--allow-dirty") options.allowDirty = true;
    else if (arg === "--name" && argv[i + 1] !== undefined) options.name = argv[++i]!;
    else if (arg.startsWith("--name=")) options.name = arg.slice("--name=".length);
    else return { error: `unknown argument ${arg}\n${USAGE}` };
  }
  if (!options.name) return { error: USAGE };
  // The name becomes the package's, the image's and the page title: a DNS label fits all three.
  if (!/^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/.test(options.name))
    return { error: `--name ${options.name}: lower-case letters, digits and inner hyphens, at most 63` };
  return options;
}

/** Prefixes (folders end in `/`) of what goes; a file goes when its path starts with one. */
export function removedPrefixes(options: Pick<InitOptions, "keepUpgrade">): string[] {
  return [...REMOVED, ...REMOVED_TOO, ...(options.keepUpgrade ? [] : UPGRADE)];
}

/**
 * The benchmark's files in the upgrade's overlay (react-router-<major>/bench/): kept with the
 * upgrade, they would put a piece of the removed benchmark back.
 */
const OVERLAY_BENCH = /^scripts\/upgrade-react-router\/[^/]+\/bench\//;

export const isRemoved = (file: string, prefixes: string[]) =>
  OVERLAY_BENCH.test(file) || prefixes.some((prefix) => file.startsWith(prefix));

export function removedScripts(scripts: string[], options: Pick<InitOptions, "keepUpgrade">): string[] {
  return scripts.filter((name) => SCRIPTS.test(name) || (!options.keepUpgrade && UPGRADE_SCRIPTS.test(name)));
}

export interface RewriteContext {
  name: string;
  keepUpgrade: boolean;
  prefixes: string[];
  scripts: string[];
  /**
   * The first folders of the tree before init, those it removes included: a removed path elsewhere
   * is not taken for one, and one under a removed folder is named as the scaffold's, as the path
   * check (scripts/repo-paths/check-tree.ts) still reads it as a path.
   */
  topLevel: ReadonlySet<string>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `<!-- kind -->`, `# kind` or `// kind` (then maybe why) on a line of its own, up to its `/kind` line. */
function markerBlocks(kind: string): RegExp {
  const open = `(?:<!-- ${kind}\\b[^\\n]*-->|# ${kind}\\b[^\\n]*|// ${kind}\\b[^\\n]*)`;
  const close = `(?:<!-- /${kind} -->|# /${kind}|// /${kind})`;
  return new RegExp(`^[ \\t]*${open}[ \\t]*\\n([\\s\\S]*?)^[ \\t]*${close}[ \\t]*\\n`, "gm");
}

/** The rewritten text of `file` in the trimmed tree. */
export function rewrite(file: string, text: string, context: RewriteContext): string {
  const markdown = file.endsWith(".md");
  // 1. Blocks that only make sense in the scaffold; the upgrade's unless it stays.
  let out = text.replace(markerBlocks("scaffold-only"), "");
  out = out.replace(markerBlocks("upgrade-only"), context.keepUpgrade ? "$1" : "");
  // 2. The measurements page moved: links relative to this file, other mentions from the root.
  const target = (link: string) => path.posix.normalize(path.posix.join(path.posix.dirname(file), link));
  const relative = (to: string) =>
    path.posix.relative(path.posix.dirname(file), to) || path.posix.basename(to);
  out = out.replace(/\]\(([^)\s#]*)(#[^)\s]*)?\)/g, (link, href: string, anchor = "") =>
    target(href) === MEASUREMENTS.from ? `](${relative(MEASUREMENTS.to)}${anchor})` : link,
  );
  out = out.replaceAll(MEASUREMENTS.from, MEASUREMENTS.to);
  if (markdown) {
    // 3. A table row whose first cell links a page that went goes with it; other links to it become text.
    const gone = (href: string) =>
      href !== "" && !/^[a-z]+:/.test(href) && isRemoved(target(href), context.prefixes);
    out = out.replace(/^\| *\[[^\]]*\]\(([^)#\s]*)[^)]*\)[^\n]*\n/gm, (row, href: string) =>
      gone(href) ? "" : row,
    );
    out = out.replace(/\[([^\]]*)\]\(([^)#\s]*)[^)]*\)/g, (link, label: string, href: string) =>
      gone(href) ? label : link,
    );
  }
  // 4. and 5., in Markdown and in comments; code and configuration keep their strings (lists of
  //    ignored folders) and commands (a workflow's `run:`), which markers remove where needed.
  const comment = /^\s*(\/\/|\/?\*|#)/;
  out = out
    .split("\n")
    .map((line) => (markdown || comment.test(line) ? scaffolds(line, context) : line))
    .join("\n");
  // 6. The scaffold's name becomes the app's.
  for (const scaffold of SCAFFOLD_NAMES) out = out.replaceAll(scaffold, context.name);
  return out;
}

/** 4. An npm script that went, and 5. a path that went under a folder that stays, named as the scaffold's. */
function scaffolds(line: string, context: RewriteContext): string {
  let out = line;
  for (const script of context.scripts) {
    const name = escape(script);
    out = out
      .replace(
        new RegExp(`\`npm run ((?:--?[\\w-]+ )*)${name}(?![\\w:.-]*\\w)([^\`]*)\``, "g"),
        `the scaffold's \`${script}$2\` script`,
      )
      .replace(
        // With its subcommand, if any: `npm run bench -- profile`.
        new RegExp(`\\bnpm run ((?:--?[\\w-]+ )*)${name}(?![\\w:.-]*\\w)( -- [a-z][\\w-]*)?`, "g"),
        `the scaffold's ${script}$2 script`,
      );
  }
  // `scaffold:path`, as git names a path at a revision; the path check takes it for no path.
  const paths = context.prefixes.filter((prefix) => context.topLevel.has(prefix.split("/")[0]!));
  if (!paths.length) return out;
  // A folder named without its trailing slash (`scripts/upgrade-react-router`) is the same folder.
  // A top-level one counts only with it (`bench/`): the word alone is no folder.
  const named = paths.map((prefix) =>
    /^[^/]+\/[^/]/.test(prefix) && prefix.endsWith("/")
      ? `${escape(prefix.slice(0, -1))}(?![\\w.-])`
      : escape(prefix),
  );
  return out.replace(new RegExp(`(?<![\\w@./:-])(${named.join("|")})`, "g"), "scaffold:$1");
}

/**
 * A page of history may name a file of the upgraded tree, which the upgrade puts in place; with
 * the upgrade gone, the page lists each such name it holds, as the
 * upgrade lists on its pages what it removed of this tree (scripts/repo-paths/check-tree.ts reads both).
 */
export function declareUpgradedTreeNames(
  file: string,
  text: string,
  {
    topLevel,
    upgradedTree,
    exists,
  }: {
    topLevel: ReadonlySet<string>;
    /** The files the upgrade put in place, as the upgraded tree names them. */
    upgradedTree: readonly string[];
    exists: (name: string) => boolean;
  },
): string {
  if (!HISTORY.test(file)) return text;
  const names = new Set<string>();
  for (const { kind, name } of referencesIn(file, text, topLevel)) {
    if (kind !== "path" || exists(name)) continue;
    const folder = name.replace(/\/$/, "");
    if (upgradedTree.some((put) => put === folder || put.startsWith(`${folder}/`))) names.add(name);
  }
  if (names.size === 0) return text;
  return `${text.replace(/\n*$/, "\n")}\n<!-- check-repo-paths: removed with the upgrade: ${[...names].sort().join(" ")} -->\n`;
}
