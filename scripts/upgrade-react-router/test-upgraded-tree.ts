/**
 * `npm run test:upgrade`: proves the way off Remix 2 on this change. Copies
 * the working tree (committed or not, ignored files left out) to a fresh
 * directory, installs it with `npm ci`, runs `npm run upgrade:react-router`
 * there, and then the suite on the result:
 *
 *   npm run test:upgrade                 every step of `npm test`
 *   npm run test:upgrade -- --core       typecheck, the docs check, unit tests, builds, the production
 *                                        smoke and the core specs (what .ci/run runs)
 *   npm run test:upgrade -- <steps…>     the `npm test` steps named (scripts/run-tests.mjs)
 *
 * The upgraded tree stays in UPGRADED_TREE (default: react-router-8 under the
 * system's temp directory) for a look or a benchmark until the next run.
 * Ctrl-C or SIGTERM stops the running step and everything it started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TREE = path.resolve(process.env.UPGRADED_TREE ?? path.join(os.tmpdir(), "react-router-8"));
const CORE_STEPS = [
  "typecheck",
  "lint:docs",
  "test:unit",
  "build",
  "build:e2e",
  "test:smoke",
  "test:e2e --core",
];

const say = (line: string) => console.log(`test:upgrade: ${line}`);
let current: ChildProcess | undefined;

function run(command: string, args: string[]): Promise<void> {
  say(`${command} ${args.join(" ")}`);
  return new Promise((resolve, reject) => {
    // Its own process group, so that a signal reaches everything it started.
    const child = spawn(command, args, {
      cwd: TREE,
      stdio: ["ignore", "inherit", "inherit"],
      detached: true,
    });
    current = child;
    child.once("exit", (code, signal) => {
      current = undefined;
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} failed (${code ?? signal})`));
    });
  });
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    const child = current;
    if (child?.pid) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
      child.once("exit", () => process.exit(128 + os.constants.signals[signal]));
    } else process.exit(128 + os.constants.signals[signal]);
  });
}

/** The working tree's files as git sees them: tracked and new, never ignored (build output, node_modules). */
function copyTree(): void {
  if (path.relative(ROOT, TREE) === "" || !path.relative(ROOT, TREE).startsWith(".."))
    throw new Error(`UPGRADED_TREE must be outside the project (${TREE})`);
  rmSync(TREE, { recursive: true, force: true });
  mkdirSync(TREE, { recursive: true });
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file && existsSync(path.join(ROOT, file)));
  for (const file of files) cpSync(path.join(ROOT, file), path.join(TREE, file), { force: true });
  // The copy is not a git repository: the release name and the upgrade's clean-tree check need none.
  say(`${files.length} files copied to ${TREE}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const steps = args.includes("--core") ? CORE_STEPS : args;
  copyTree();
  await run("npm", ["ci", "--no-audit", "--no-fund"]);
  await run("npm", ["run", "upgrade:react-router"]);
  await run("node", ["scripts/run-tests.mjs", ...steps]);
  say(`passed on React Router 8 (${TREE})`);
}

main().catch((error: unknown) => {
  console.error(`test:upgrade: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
