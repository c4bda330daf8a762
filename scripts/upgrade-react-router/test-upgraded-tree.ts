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
import os from "node:os";
import path from "node:path";
import { copiedTree, runMain } from "../copied-tree";

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
const { say, run, copy } = copiedTree("test:upgrade", TREE, "UPGRADED_TREE");

runMain("test:upgrade", async () => {
  const args = process.argv.slice(2);
  const steps = args.includes("--core") ? CORE_STEPS : args;
  // The copy is not a git repository: the release name and the upgrade's clean-tree check need none.
  say(`${copy()} files copied to ${TREE}`);
  await run("npm", ["ci", "--no-audit", "--no-fund"]);
  // Spotlight's own folder, for its spec in the whole suite: its steps install nothing.
  if (!args.includes("--core"))
    await run("npm", ["ci", "--prefix", "tools/spotlight", "--no-audit", "--no-fund"]);
  await run("npm", ["run", "upgrade:react-router"]);
  await run("node", ["scripts/run-tests.mjs", ...steps]);
  say(`passed on React Router 8 (${TREE})`);
});
