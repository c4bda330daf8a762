/**
 * `npm run init -- --name <app-name> [--keep-upgrade] [--allow-dirty]`: day
 * one, once. Makes the scaffold the team's app: renames it, removes what
 * proves the scaffold rather than the product (and this script), rewrites
 * what named those, and prints what it did. What and why: docs/day-one.md;
 * the rules themselves: scripts/init-plan.ts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { filesUnder, topLevelFolders, UPGRADE_OVERLAY } from "./repo-paths/check-tree";
import {
  declareUpgradedTreeNames,
  isRemoved,
  MEASUREMENTS,
  MEASUREMENTS_NOTE,
  parseArgs,
  removedPrefixes,
  removedScripts,
  rewrite,
} from "./init-plan";

const ROOT = path.resolve(import.meta.dirname, "..");
const at = (file: string) => path.join(ROOT, file);
const say = (line: string) => console.log(`init: ${line}`);
const fail = (message: string): never => {
  console.error(`init: ${message}`);
  process.exit(1);
};

const options = parseArgs(process.argv.slice(2));
if ("error" in options) fail(options.error);
const { name, keepUpgrade, allowDirty } = options as Exclude<typeof options, { error: string }>;

// Undo is `git checkout`: only on a tree whose state git holds.
if (!allowDirty) {
  let status: string;
  try {
    status = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
  } catch {
    fail("not a git repository: nothing to undo with (--allow-dirty to run anyway)");
  }
  if (status!.trim()) fail("the git tree has uncommitted changes: commit or stash them (or --allow-dirty)");
}

// The measurements page moves (its note, saying what it is now, comes after the rewrites below).
mkdirSync(path.dirname(at(MEASUREMENTS.to)), { recursive: true });
writeFileSync(at(MEASUREMENTS.to), readFileSync(at(MEASUREMENTS.from)));
say(`moved ${MEASUREMENTS.from} to ${MEASUREMENTS.to}`);

const prefixes = removedPrefixes({ keepUpgrade });
// Before anything goes: a path under a top-level folder that goes (bench's) is the scaffold's too.
const topLevel = topLevelFolders(ROOT);
// What the upgrade puts in place, which the pages of history may name (gone with the upgrade).
const upgradedTree = keepUpgrade
  ? []
  : filesUnder(ROOT)
      .filter((file) => file.startsWith(UPGRADE_OVERLAY))
      .map((file) => file.slice(UPGRADE_OVERLAY.length));
for (const file of filesUnder(ROOT).filter((file) => isRemoved(file, prefixes))) {
  rmSync(at(file));
  // Folders left empty go too (git would not show them; ignored output keeps one).
  for (
    let dir = path.dirname(file);
    dir !== "." && readdirSync(at(dir)).length === 0;
    dir = path.dirname(dir)
  )
    rmdirSync(at(dir));
}
for (const prefix of prefixes.filter((prefix) => prefix.endsWith("/") && existsSync(at(prefix))))
  rmSync(at(prefix), { recursive: true, force: true });
say(
  `removed ${prefixes.map((prefix) => (/[/.]\w*$/.test(prefix) ? prefix : `${prefix}*`)).join(", ")}` +
    (keepUpgrade ? ", and the benchmark's files in the upgrade's overlay" : ""),
);

const pkg = JSON.parse(readFileSync(at("package.json"), "utf8")) as {
  name: string;
  scripts: Record<string, string>;
};
const scripts = removedScripts(Object.keys(pkg.scripts), { keepUpgrade });
for (const script of scripts) delete pkg.scripts[script];
pkg.name = name;
writeFileSync(at("package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
const lock = JSON.parse(readFileSync(at("package-lock.json"), "utf8")) as {
  name: string;
  packages: Record<string, { name?: string }>;
};
lock.name = name;
lock.packages[""]!.name = name;
writeFileSync(at("package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
say(`package name ${name}; npm scripts removed: ${scripts.join(", ")}`);

const context = { name, keepUpgrade, prefixes, scripts, topLevel };
const changed: string[] = [];
for (const file of filesUnder(ROOT)) {
  if (
    /^package(-lock)?\.json$/.test(file) ||
    !/\.(md|[cm]?[jt]sx?|json|ya?ml|sh)$|(^|\/)(Dockerfile|\.\w+ignore)$/.test(file)
  )
    continue;
  const text = readFileSync(at(file), "utf8");
  const next = declareUpgradedTreeNames(file, rewrite(file, text, context), {
    topLevel,
    upgradedTree,
    exists: (name) => existsSync(at(name)),
  });
  if (next !== text) {
    writeFileSync(at(file), next);
    changed.push(file);
  }
}
const page = readFileSync(at(MEASUREMENTS.to), "utf8");
writeFileSync(at(MEASUREMENTS.to), page.replace(/^(# .*\n)/, `$1\n${MEASUREMENTS_NOTE}\n`));
// The rewrites change line lengths and table widths: the house format, on what changed.
execFileSync(
  "npx",
  ["prettier", "--log-level", "warn", "--ignore-unknown", "--write", MEASUREMENTS.to, ...changed],
  {
    cwd: ROOT,
    stdio: "inherit",
  },
);
say(`rewrote ${changed.length} file(s) that named what went: ${changed.join(", ")}`);
say(
  `kept: app/, server/, e2e/, test-support/, deploy/, patches/, tools/, docs/ and its decision records, ` +
    `the client JavaScript budget (e2e/toolchain/client-js-budget.ts)${keepUpgrade ? ", the upgrade to React Router (--keep-upgrade)" : ""}`,
);
say("done: review with git status and git diff, then commit; git checkout . && git clean -fd undoes it");
