/**
 * No comment in the tree's code carries a date: a dated figure ("38 and 72 MiB … (that day)")
 * belongs in bench/README.md or a dated decision record, where the comment can point; the comment
 * keeps the reason. Prose (Markdown) is not read: dates belong there.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "./check-tree";
import { hashComments, scriptComments } from "./references";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCRIPT = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
const HASH = /\.(sh|ya?ml)$|(^|\/)(Dockerfile|\.dockerignore|\.env\.example|run)$/;
const DATE = /\b20\d\d-[01]\d-[0-3]\d\b/;

/** `file:line: text` of every comment line in `source` that holds a date. */
export function datedCommentLines(file: string, source: string): string[] {
  const comments = SCRIPT.test(file) ? scriptComments(source, file) : hashComments(source);
  return comments.flatMap(({ text, line }) =>
    text
      .split("\n")
      .flatMap((row, offset) => (DATE.test(row) ? [`${file}:${line + offset}: ${row.trim()}`] : [])),
  );
}

describe("comments", () => {
  it("read a date only where one is, not in strings", () => {
    const source = 'const at = "2026-11-25"; // measured 2026-11-25\n/* fine */\n';
    expect(datedCommentLines("a.ts", source)).toEqual(["a.ts:1: // measured 2026-11-25"]);
    expect(datedCommentLines(".ci/run", 'echo "2026-11-25"\n# since 2026-11-25\n')).toEqual([
      ".ci/run:2: since 2026-11-25",
    ]);
  });

  it("carry no dated figures in the tree's code", () => {
    const found = filesUnder(ROOT)
      .filter((file) => SCRIPT.test(file) || HASH.test(file))
      .flatMap((file) => datedCommentLines(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });
});
