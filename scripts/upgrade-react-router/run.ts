/**
 * `npm run upgrade:react-router`: turns this working tree from Remix 2 into
 * React Router 8, in place, as a codemod does (docs/upgrading-to-react-router-8.md):
 *  1. every source, config and test file rewritten (source-rewrite.ts);
 *  2. the few files that differ by more than names replaced by their React
 *     Router 8 versions (react-router-8/), and Remix's own removed;
 *  3. the manifest without Remix, then `npm install` of the React Router
 *     family (manifest.ts): the lock changes, so this needs the registry;
 *  4. the README and docs rewritten to describe the result, and the decision
 *     records it overturns marked superseded (prose.ts);
 *  5. a check that no package or import of Remix 2 is left, nor its names in the prose.
 * It refuses a tree with uncommitted changes (`--allow-dirty` to go on anyway):
 * the way back is `git checkout . && git clean -fd && npm ci`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import {
  ADDED_DEPENDENCIES,
  ADDED_DEV_DEPENDENCIES,
  ADDED_DEV_RANGES,
  UPGRADE_SCRIPTS,
  upgradeManifest,
  type PackageJson,
} from "./manifest";
import { upgradeDockerfile, upgradeDockerignore } from "./dockerfile";
import { renameFrameworkInComments } from "./comment-names";
import { declareRemovedInHistory } from "./history-pages";
import { proseFiles, REMIX_NAME_IN_PROSE, rewriteDocs } from "./prose";
import { REMOVED, RENAMED } from "./removed-files";
import { rewriteSource } from "./source-rewrite";
import { rewriteTreePassages } from "./tree-passages";

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, "../..");
const REPLACEMENTS = path.join(HERE, "react-router-8");

/** Not rewritten: output, installed packages (tools/spotlight has its own), the prose, and this script. */
const SKIPPED =
  /(^|\/)node_modules(\/|$)|^(\.git|\.cache|\.react-router|test-results|playwright-report|build[^/]*|bench\/results|bench\/baseline\/build[^/]*|docs|scripts\/upgrade-react-router)(\/|$)|\.md$|^package(-lock)?\.json$/;
/** Where the pages of history are looked for (history-pages.ts): all but output and packages. */
const SKIPPED_FOR_HISTORY = /(^|\/)node_modules(\/|$)|^(\.git|\.cache|build[^/]*|bench\/results)(\/|$)/;
const REWRITTEN = /\.(ts|tsx|js|mjs|cjs|json|ya?ml|sh)$|(^|\/)(Dockerfile|\.dockerignore|\.env\.example)$/;

const say = (line: string) => console.log(`upgrade: ${line}`);

function filesUnder(dir: string, skipped: RegExp | undefined, prefix = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const relative = prefix + name;
    if (skipped?.test(relative)) return [];
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full, skipped, `${relative}/`) : [relative];
  });
}

function refuseUnlessReady(): void {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as PackageJson;
  if (!pkg.dependencies["@remix-run/react"])
    throw new Error("this tree does not depend on @remix-run/react: nothing to upgrade");
  if (process.argv.includes("--allow-dirty") || !existsSync(path.join(ROOT, ".git"))) return;
  const status = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
  if (status.trim())
    throw new Error(
      "uncommitted changes: commit or stash them first (or pass --allow-dirty), so the upgrade is one reviewable diff",
    );
}

function rewriteSources(): string[] {
  const changed: string[] = [];
  for (const file of filesUnder(ROOT, SKIPPED).filter((name) => REWRITTEN.test(name))) {
    const full = path.join(ROOT, file);
    const before = readFileSync(full, "utf8");
    const after = rewriteSource(file, before);
    if (after === before) continue;
    writeFileSync(full, after);
    changed.push(file);
  }
  return changed;
}

/** The project's own Prettier over what the upgrade wrote (new names change line lengths). */
function format(files: string[]): void {
  const formatted = files.filter((file) => existsSync(path.join(ROOT, file)));
  const prettier = path.join(ROOT, "node_modules/.bin/prettier");
  const result = spawnSync(prettier, ["--write", "--ignore-unknown", "--log-level", "warn", ...formatted], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error(`prettier failed (exit ${result.status ?? result.signal})`);
}

function replaceFiles(): { removed: number; replaced: string[] } {
  for (const file of REMOVED) rmSync(path.join(ROOT, file), { recursive: true, force: true });
  for (const [from, to] of Object.entries(RENAMED)) renameSync(path.join(ROOT, from), path.join(ROOT, to));
  // The image runs the app's own server (dockerfile.ts).
  const dockerfile = path.join(ROOT, "Dockerfile");
  writeFileSync(dockerfile, upgradeDockerfile(readFileSync(dockerfile, "utf8")));
  const dockerignore = path.join(ROOT, ".dockerignore");
  writeFileSync(dockerignore, upgradeDockerignore(readFileSync(dockerignore, "utf8")));
  const replaced = filesUnder(REPLACEMENTS, undefined);
  for (const file of replaced) cpSync(path.join(REPLACEMENTS, file), path.join(ROOT, file));
  return { removed: REMOVED.length, replaced };
}

function npm(...args: string[]): void {
  say(`npm ${args.join(" ")}`);
  const result = spawnSync("npm", [...args, "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm ${args[0]} failed (exit ${result.status ?? result.signal})`);
}

function upgradePackages(): void {
  const file = path.join(ROOT, "package.json");
  const pkg = upgradeManifest(JSON.parse(readFileSync(file, "utf8")) as PackageJson);
  writeFileSync(file, rewriteSource("package.json", JSON.stringify(pkg, null, 2) + "\n"));
  // In two steps: Remix's packages out of the lock first, or npm finds react-router 6 and 8 in one tree.
  npm("install");
  // React 19's types before react-router, which takes them as an optional peer (>= 19.2).
  npm("install", "--save-dev", ...ADDED_DEV_RANGES);
  npm("install", "--save-exact", ...ADDED_DEPENDENCIES);
  npm("install", "--save-exact", "--save-dev", ...ADDED_DEV_DEPENDENCIES);
}

/**
 * Remix 2's packages. (`@remix-run/node-fetch-server`, by the same team, is a
 * dependency of React Router 8's own `dev` and `serve` packages.)
 */
const REMIX_PACKAGE =
  /@remix-run\/(?:node|react|serve|dev|express|server-runtime|router|fs-routes|route-config|css-bundle|testing)(?![\w-])/;

/** Files and lock entries that still name a Remix 2 package: none may be left. */
function leftovers(): string[] {
  const files = filesUnder(ROOT, SKIPPED)
    .filter((name) => REWRITTEN.test(name) || name === "package.json")
    .filter((name) => REMIX_PACKAGE.test(readFileSync(path.join(ROOT, name), "utf8")));
  const prose = proseFiles(ROOT).filter((name) => {
    const text = readFileSync(path.join(ROOT, name), "utf8");
    return REMIX_PACKAGE.test(text) || REMIX_NAME_IN_PROSE.test(text);
  });
  const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, unknown>;
  };
  const locked = Object.keys(lock.packages).filter((key) => REMIX_PACKAGE.test(key));
  return [...files, ...prose, ...locked.map((key) => `package-lock.json: ${key}`)];
}

const USAGE = `usage: npm run upgrade:react-router [-- --allow-dirty]
Rewrites this tree in place from Remix 2 to React Router 8 (docs/upgrading-to-react-router-8.md).
  --allow-dirty  go on with uncommitted changes`;

/** Any other word is refused before a file is touched: `--help` must never start the rewrite. */
function readArguments(): void {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    process.exit(0);
  }
  const unknown = args.filter((arg) => arg !== "--allow-dirty");
  if (unknown.length) throw new Error(`unknown option ${unknown.join(" ")} (--help lists the options)`);
}

function main(): void {
  readArguments();
  refuseUnlessReady();
  const rewritten = rewriteSources();
  say(`${rewritten.length} files rewritten (imports, package names, globals)`);
  const { removed, replaced } = replaceFiles();
  say(`${removed} Remix files removed; ${replaced.length} files replaced or added: ${replaced.join(", ")}`);
  const docs = rewriteDocs(ROOT);
  say(`${docs.length} pages of prose rewritten or marked superseded`);
  const comments = renameFrameworkInComments(ROOT, filesUnder(ROOT, SKIPPED));
  say(`${comments.length} runtime files' comments name React Router`);
  const passages = rewriteTreePassages(ROOT);
  say(`${passages.length} files' passages about removed files rewritten`);
  // This script's own folder goes last (below), with the scripts that run it.
  const history = declareRemovedInHistory(ROOT, filesUnder(ROOT, SKIPPED_FOR_HISTORY), {
    paths: [...REMOVED, ...Object.keys(RENAMED), path.relative(ROOT, HERE)],
    scripts: UPGRADE_SCRIPTS,
  });
  say(`${history.length} pages of history list what they name of the Remix 2 tree that is removed`);
  upgradePackages();
  format([...rewritten, ...replaced, ...docs, ...comments, ...passages, ...history, "package.json"]);
  rmSync(HERE, { recursive: true, force: true });
  const left = leftovers();
  if (left.length) throw new Error(`still naming a Remix 2 package:\n  ${left.join("\n  ")}`);
  say("done: React Router 8. Next: npm test; review with git diff (docs/upgrading-to-react-router-8.md).");
}

try {
  main();
} catch (error) {
  console.error(`upgrade: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
