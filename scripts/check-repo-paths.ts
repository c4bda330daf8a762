/**
 * `npm run lint:docs`, second half (the first is remark's link check): fails
 * when a Markdown page or a source comment names a repository path that does
 * not exist or an npm script that package.json does not have, or when the
 * index of decision records (docs/decisions/README.md) does not list every
 * record as it is, or when the README's map leaves out a top-level folder or a
 * file at the top of server/ (repo-paths/readme-map.ts). What counts as a path,
 * and what does not: repo-paths/references.ts.
 */
import path from "node:path";
import { checkTree } from "./repo-paths/check-tree";
import { checkDecisionIndex } from "./repo-paths/decision-index";
import { checkReadmeMap } from "./repo-paths/readme-map";

const ROOT = path.resolve(import.meta.dirname, "..");
const problems = [...checkTree(ROOT), ...checkDecisionIndex(ROOT), ...checkReadmeMap(ROOT)];
for (const { file, line, message } of problems) console.error(`${file}:${line}: ${message}`);
if (problems.length) {
  console.error(`check-repo-paths: ${problems.length} reference(s) to what is not there`);
  process.exit(1);
}
console.log(
  "check-repo-paths: every path, npm script and decision record named exists; the README's map names every folder",
);
