/**
 * `npm run bench -- compare-goals <before.json> <after.json>`: Sentry's
 * cost goals of two earlier runs of `npm run bench` side by side (each cell
 * `before → after`), e.g. one run on the commit before a change and one after
 * it. Each ratio is within its own run; bench/README.md, "One request scope".
 */
import { parseArgs } from "node:util";
import { readResults } from "./support/results-file";
import { costTable } from "./support/sentry-cost-goals";

const { values, positionals } = parseArgs({
  options: { help: { type: "boolean", short: "h" } },
  allowPositionals: true,
});
const USAGE = `usage: npm run bench -- compare-goals <before.json> <after.json>
Two results files of npm run bench (bench/results/), each cell before → after.`;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [beforeFile, afterFile] = positionals;
if (!beforeFile || !afterFile || positionals.length > 2) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const before = readResults(beforeFile);
  const after = readResults(afterFile);
  const label = (r: typeof before) => `${r.commit ?? "?"} (${r.startedAt})`;
  console.log(`before: ${label(before)}; after: ${label(after)}\n`);
  console.log(costTable(after.summaries, before.summaries));
} catch (error) {
  console.error(`compare-goals: ${(error as Error).message}`);
  process.exit(1);
}
