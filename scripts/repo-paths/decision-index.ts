/**
 * The decision records and their index (docs/decisions/README.md). Every
 * record opens the same way, so a reader sees at the top whether it still
 * holds and what replaced it:
 *
 *   # 0050 Title
 *
 *   Date: YYYY-MM-DD
 *
 *   Status: Accepted | Superseded by 0060 (YYYY-MM-DD): … | Partly superseded by 0060 (YYYY-MM-DD): …
 *
 * and the index has one row per record: number (linked), title, status (up to
 * the date), date. A record added, retitled or superseded without its row fails.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Problem } from "./check-tree";

export const DECISIONS = "docs/decisions";
const INDEX = `${DECISIONS}/README.md`;

export interface Decision {
  file: string;
  number: string;
  title: string;
  date: string;
  status: string;
}

const HEAD =
  /^# (\d{4}) (.+)\n\nDate: (\d{4}-\d{2}-\d{2})\n\nStatus: (Accepted|(?:Partly s|S)uperseded by \d{4})\b/;

/** A record's head, or why it is not one. */
export function parseDecision(file: string, markdown: string): Decision | string {
  const match = HEAD.exec(markdown);
  if (!match)
    return 'does not open with "# NNNN Title", "Date: YYYY-MM-DD" and "Status: Accepted" or "Status: [Partly s|S]uperseded by NNNN …"';
  const [, number, title, date, status] = match as unknown as string[];
  if (!file.startsWith(`${number}-`)) return `is numbered ${number} in its title`;
  return { file, number: number!, title: title!, date: date!, status: status! };
}

/** `| [0050](0050-….md) | title | status | date |` */
export function indexRow(decision: Decision): string {
  return `| [${decision.number}](${decision.file}) | ${decision.title} | ${decision.status} | ${decision.date} |`;
}

const cells = (row: string) =>
  row
    .split("|")
    .slice(1, -1)
    .map((cell) => cell.trim())
    .join("|");

export function checkDecisionIndex(root: string): Problem[] {
  const dir = path.join(root, DECISIONS);
  const files = readdirSync(dir).filter((file) => /^\d{4}-.*\.md$/.test(file));
  const problems: Problem[] = [];
  const index = existsSync(path.join(root, INDEX)) ? readFileSync(path.join(root, INDEX), "utf8") : "";
  const rows = new Set(
    index
      .split("\n")
      .filter((line) => line.startsWith("| ["))
      .map(cells),
  );
  const numbers = new Set(files.map((file) => file.slice(0, 4)));
  for (const file of files.sort()) {
    const decision = parseDecision(file, readFileSync(path.join(dir, file), "utf8"));
    if (typeof decision === "string") {
      problems.push({ file: `${DECISIONS}/${file}`, line: 1, message: decision });
      continue;
    }
    const by = /superseded by (\d{4})/i.exec(decision.status)?.[1];
    if (by && !numbers.has(by))
      problems.push({
        file: `${DECISIONS}/${file}`,
        line: 5,
        message: `is superseded by ${by}, which does not exist`,
      });
    if (!rows.has(cells(indexRow(decision))))
      problems.push({ file: INDEX, line: 1, message: `lacks the row ${indexRow(decision)}` });
  }
  for (const row of rows) {
    const linked = /^\[\d{4}\]\(([^)]+)\)/.exec(row)?.[1];
    if (!linked || !files.includes(linked))
      problems.push({ file: INDEX, line: 1, message: `has a row for no record: ${row.split("|")[0]}` });
  }
  return problems;
}
