import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkDecisionIndex, DECISIONS, indexRow, parseDecision } from "./decision-index";

const record = (number: string, title: string, status: string) =>
  `# ${number} ${title}\n\nDate: 2026-11-23\n\nStatus: ${status}\n\n## Context\n`;

describe("a decision record's head", () => {
  it("gives number, title, date and the status without its reason", () => {
    const head = parseDecision(
      "0050-x.md",
      record("0050", "Wrap it", "Partly superseded by 0060 (2026-11-25): …"),
    );
    expect(head).toEqual({
      file: "0050-x.md",
      number: "0050",
      title: "Wrap it",
      date: "2026-11-23",
      status: "Partly superseded by 0060",
    });
    expect(indexRow(head as Exclude<typeof head, string>)).toBe(
      "| [0050](0050-x.md) | Wrap it | Partly superseded by 0060 | 2026-11-23 |",
    );
  });

  it("refuses a status of another form and a number that is not the file's", () => {
    expect(parseDecision("0050-x.md", record("0050", "T", "Replaced, see 0060"))).toMatch(
      /does not open with/,
    );
    expect(parseDecision("0050-x.md", record("0051", "T", "Accepted"))).toBe("is numbered 0051 in its title");
  });
});

describe("the index of decision records", () => {
  let root: string;
  const write = (file: string, text: string) => writeFileSync(path.join(root, DECISIONS, file), text);
  const index = (...rows: string[]) =>
    write("README.md", `# Decisions\n\n| a | b | c | d |\n| - | - | - | - |\n${rows.join("\n")}\n`);
  const row0050 = "| [0050](0050-wrap.md) | Wrap it | Superseded by 0060 | 2026-11-23 |";
  const row0060 = "| [0060](0060-new.md) | New | Accepted | 2026-11-23 |";
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "decision-index-"));
    mkdirSync(path.join(root, DECISIONS), { recursive: true });
    write("0050-wrap.md", record("0050", "Wrap it", "Superseded by 0060 (2026-11-25): gone"));
    write("0060-new.md", record("0060", "New", "Accepted"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("passes when every record has its row (Prettier's padding aside)", () => {
    index(row0050.replace("| Wrap it |", "| Wrap it      |"), row0060);
    expect(checkDecisionIndex(root)).toEqual([]);
  });

  it("fails on a record without its row, a stale status, a row too many and a superseder that does not exist", () => {
    index(
      row0050.replace("Superseded by 0060", "Accepted"),
      "| [0070](0070-x.md) | X | Accepted | 2026-11-23 |",
    );
    write("0061-orphan.md", record("0061", "Orphan", "Superseded by 0099 (2026-11-25): x"));
    expect(checkDecisionIndex(root).map((problem) => problem.message)).toEqual([
      `lacks the row ${row0050}`,
      `lacks the row ${row0060}`,
      "is superseded by 0099, which does not exist",
      "lacks the row | [0061](0061-orphan.md) | Orphan | Superseded by 0099 | 2026-11-23 |",
      "has a row for no record: [0070](0070-x.md)",
    ]);
  });

  it("fails without an index", () => {
    expect(checkDecisionIndex(root)).toHaveLength(2);
  });
});
