/**
 * `npx tsx scripts/test-init.ts`: proves day one on this change. Copies the working tree
 * (committed or not, ignored files left out) to a fresh directory, commits it
 * there (init refuses a tree git does not hold), installs it with `npm ci`,
 * runs `npm run init -- --name my-app` with CI=true, checks that nothing of
 * the scaffold or of init is left, and runs the core of the trimmed tree's
 * `npm test`: the static checks, unit tests, builds, the production smoke and
 * the core specs, then the client JavaScript budget. With step names, those
 * steps only.
 *
 * The trimmed tree stays in INIT_TREE (default: my-app under the system's
 * temp directory) until the next run. Ctrl-C or SIGTERM stops the running step
 * and everything it started. The way the copy is made and run follows
 * scripts/upgrade-react-router/test-upgraded-tree.ts; the steps they share:
 * scripts/copied-tree.ts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { copiedTree, runMain } from "./copied-tree";

const TREE = path.resolve(process.env.INIT_TREE ?? path.join(os.tmpdir(), "my-app"));
const CORE_STEPS = [
  "typecheck",
  "lint",
  "lint:docs",
  "test:unit",
  "build",
  "build:e2e",
  "test:smoke",
  "test:e2e --core",
];
/** The product's own budget, beside the core specs (which the upgraded tree runs too). */
const BUDGET_SPEC = ["playwright", "test", "-c", "e2e", "e2e/toolchain/client-js-budget.spec.ts"];
const { say, run, copy } = copiedTree("test:init", TREE, "INIT_TREE");

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=test:init", "-c", "user.email=test-init@localhost", ...args], {
    cwd: TREE,
    encoding: "utf8",
  });

/** The working tree's files as git sees them, committed in a fresh repository (init refuses a tree git does not hold). */
function copyTree(): void {
  const files = copy();
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "the scaffold");
  say(`${files} files copied to ${TREE} and committed there`);
}

/** What must not survive day one: init itself, the scaffold's name, the harness it removes. */
function leftovers(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(TREE, "package.json"), "utf8")) as {
    name: string;
    scripts: Record<string, string>;
  };
  const problems = [
    ...(pkg.name === "my-app" ? [] : [`package.json name is ${pkg.name}`]),
    ...Object.keys(pkg.scripts)
      .filter((script) => /^(init|bench|upgrade:.*|test:upgrade)$/.test(script))
      .map((script) => `npm script ${script}`),
    ...[
      "bench",
      ".ci",
      "scripts/init.ts",
      "scripts/test-init.ts",
      "scripts/copied-tree.ts",
      "scripts/upgrade-react-router",
      "docs/day-one.md",
    ]
      .filter((file) => existsSync(path.join(TREE, file)))
      .map((file) => `${file} still there`),
  ];
  let named = "";
  try {
    named = git("grep", "-l", "-I", "-e", "remix-sentry-scaffold", "-e", "npm run init", "--", ".").trim();
  } catch {
    // git grep exits 1 when nothing matches.
  }
  return named
    ? [...problems, ...named.split("\n").map((file) => `${file} names the scaffold or init`)]
    : problems;
}

runMain("test:init", async () => {
  const args = process.argv.slice(2);
  const steps = args.length ? args : CORE_STEPS;
  copyTree();
  await run("npm", ["ci", "--no-audit", "--no-fund"]);
  await run("npm", ["run", "init", "--", "--name", "my-app"], { CI: "true" });
  git("add", "-A");
  const problems = leftovers();
  if (problems.length) throw new Error(`left after init:\n  ${problems.join("\n  ")}`);
  say("nothing of the scaffold or of init is left");
  await run("node", ["scripts/run-tests.mjs", ...steps]);
  if (!args.length) await run("npx", BUDGET_SPEC);
  say(`passed on the trimmed tree (${TREE})`);
});
