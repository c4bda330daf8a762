/**
 * Passages of the tree's live files (code comments, CI, the pages that are not history) that
 * name a file of the Remix 2 tree which the upgrade removes, or the upgrade itself, which removes
 * itself, or call the app a Remix app: each rewritten to say what is true in the upgraded tree. Applied last, to the text as
 * the other rewrites left it. A passage that is no longer there is skipped: the path check, which
 * `npm run test:upgrade` runs on the upgraded tree (lint:docs), finds any name left behind.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

type Passages = readonly (readonly [string, string])[];

export const TREE_PASSAGES: Readonly<Record<string, Passages>> = {
  // The upgraded tree is the upgrade's result: CI runs its suite, no further upgrade.
  ".ci/run": [
    [
      '# The way off Remix 2, proven on this change: the upgrade on a clean copy of the tree, then the\n# typecheck, unit tests, builds, production smoke and core specs on React Router 8 (the whole\n# suite on both trees runs in the GitHub workflow). Before the next step, not beside it: on two\n# cores, each tree\'s e2e step took 115-127 s alone and 178-417 s beside the other (decision 0087).\nexport UPGRADED_TREE="${TMPDIR:-/tmp}/react-router-8"\nstep "npm run test:upgrade -- --core (React Router 8, in $UPGRADED_TREE)"\nnpm run test:upgrade -- --core\n\n',
      "",
    ],
    [
      '\n# The upgraded tree\'s own image (the app\'s own server as process 1) through the same checks; its\n# build-e2e/ is the one its core specs ran against above.\nstep "npm run test:deploy on the tree upgraded to React Router 8"\n(cd "$UPGRADED_TREE" && npm run test:deploy)\n',
      "",
    ],
  ],
  ".ci/README.md": [
    [
      "5. `npm run test:upgrade -- --core`: a copy of the tree upgraded to React Router 8\n   (`npm run upgrade:react-router`, which needs the npm registry), then its typecheck, unit tests,\n   builds, production smoke and core specs (docs/upgrading-to-react-router-8.md). The whole suite\n   on the upgraded tree runs in the GitHub workflow, where the time is not shared. It runs before\n   step 6, not beside it: on two cores, each tree's e2e step took 115-127 s alone and 178-417 s\n   beside the other (decision 0087).\n",
      "5. (On the Remix 2 tree this one was upgraded from, the upgrade on a clean copy: this tree is its\n   result, docs/upgrading-to-react-router-8.md.)\n",
    ],
  ],
  "bench/compare-builds.ts": [
    [
      " * the React Router 8 tree `npm run test:upgrade` leaves (its own start script",
      " * the Remix 2 tree this one was upgraded from (its own start script",
    ],
  ],
  "bench/run.ts": [
    [
      " *   E  A plus @sentry/react as Sentry documents it, 100 % tracing (bench/documented)",
      " *   E  on Remix 2 only: A plus Sentry's Remix SDK as Sentry documents it (the upgrade removes it)",
    ],
  ],
  "bench/support/servers.ts": [
    [
      "/** Where target E, the documented `@sentry/react` setup, lives (bench/documented/vite.config.ts). */",
      "/** Where target E, the documented setup of Sentry's Remix SDK, lived on Remix 2 (the upgrade removes it). */",
    ],
    [
      " * Target E exists on Remix 2 only: the React Router 8 upgrade removes\n * bench/documented with `@sentry/react`, the SDK it documents.",
      " * Target E exists on Remix 2 only: the React Router 8 upgrade removes\n * it with Sentry's Remix SDK, the SDK it documents.",
    ],
  ],
  "docs/day-one.md": [
    [
      "- `--keep-upgrade`: keep the way off Remix 2 (`scripts/upgrade-react-router/`,\n  `npm run upgrade:react-router`, `npm run test:upgrade` and its page, linked from the README)\n  until the team has used it; the benchmark's files in the upgrade's own copy of files go.\n",
      "- `--keep-upgrade`: keep the upgrade's page (docs/upgrading-to-react-router-8.md); on the Remix 2\n  tree this one came from, it kept the way off Remix 2 itself, which the upgrade removed.\n",
    ],
    // No patches/ on React Router 8 (docs/decisions/0071).
    ["`deploy/` and its checks, `patches/`, `SECURITY.md`", "`deploy/` and its checks, `SECURITY.md`"],
    [
      "| `scripts/upgrade-react-router/`, `scripts/copied-tree.ts` (its test's steps), the upgrade's doc, `upgrade:react-router`, `test:upgrade`",
      "| the upgrade's page, `scripts/copied-tree.ts` (init's test's steps; the upgrade removed itself and its scripts)",
    ],
  ],
  "docs/testing.md": [
    [
      "(`shutdown.ts`) must be some file of the tree.",
      "(`shutdown.ts`) must be some file of the tree. Each page of history lists what it names of the\nRemix 2 tree that the upgrade removed (`<!-- check-repo-paths: removed by the upgrade: … -->`), and\nnothing else of that tree passes.",
    ],
    [
      "`npm test`, `npm run test:upgrade -- --core`, `npx tsx scripts/test-init.ts`",
      "`npm test`, `npx tsx scripts/test-init.ts`",
    ],
  ],
  "scripts/init-plan.ts": [
    [
      "// A folder named without its trailing slash (`scripts/upgrade-react-router`) is the same folder.",
      "// A folder named without its trailing slash (`scripts/repo-paths`) is the same folder.",
    ],
  ],
  "scripts/test-init.ts": [
    [
      " * and everything it started. The way the copy is made and run follows\n * scripts/upgrade-react-router/test-upgraded-tree.ts;",
      " * and everything it started. The way the copy is made and run follows\n * the upgrade's own test on the Remix 2 tree this one came from;",
    ],
  ],
  "test-support/framework.ts": [
    [
      " * The framework this tree runs on: Remix 2, or React Router 8 once\n * `npm run upgrade:react-router` has run.",
      " * The framework this tree runs on: Remix 2, or React Router 8 once\n * the upgrade (docs/upgrading-to-react-router-8.md) has run.",
    ],
  ],
  "vite.config.ts": [
    [
      '      // What the React Router 8 upgrade puts in place is tested once it is (npm run test:upgrade).\n      exclude: [...configDefaults.exclude, "scripts/upgrade-react-router/react-router-8/**"],',
      "      exclude: [...configDefaults.exclude],",
    ],
  ],
  // What the page says the app is (the scaffold's name, which init replaces, stays).
  "app/site.ts": [["A server-rendered Remix app with", "A server-rendered React Router app with"]],
  "app/routes/_index.tsx": [
    ["This server-rendered Remix app is ready", "This server-rendered React Router app is ready"],
  ],
};

/** Rewrites the passages in the tree at `root`; the files changed. */
export function rewriteTreePassages(root: string): string[] {
  return Object.entries(TREE_PASSAGES).flatMap(([file, passages]) => {
    const full = path.join(root, file);
    if (!existsSync(full)) return [];
    const before = readFileSync(full, "utf8");
    let after = before;
    for (const [from, to] of passages) after = after.split(from).join(to);
    if (after === before) return [];
    writeFileSync(full, after);
    return [file];
  });
}
