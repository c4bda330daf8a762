/**
 * `npx tsx bench/goals-before-after.ts <before.json> <after.json>`: Sentry's
 * cost goals of two earlier runs of `npm run bench` side by side (each cell
 * `before → after`), e.g. one run on the commit before a change and one after
 * it. Each ratio is within its own run; bench/README.md, "One request scope".
 */
import { readResults } from "./support/results-file";
import { costTable } from "./support/sentry-cost-goals";

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error("usage: npx tsx bench/goals-before-after.ts <before.json> <after.json>");
  process.exit(2);
}
try {
  const before = readResults(beforeFile);
  const after = readResults(afterFile);
  const label = (r: typeof before) => `${r.commit ?? "?"} (${r.startedAt})`;
  console.log(`before: ${label(before)}; after: ${label(after)}\n`);
  console.log(costTable(after.summaries, before.summaries));
} catch (error) {
  console.error(`goals-before-after: ${(error as Error).message}`);
  process.exit(1);
}
