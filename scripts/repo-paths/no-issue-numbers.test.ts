/**
 * The tree names no issue of the team's tracker ("issue 31"): a team that
 * adopts the scaffold cannot look one up, so a comment or a page says the
 * reason or the goal itself, and figures go to bench/README.md or a dated
 * decision record.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "./check-tree";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TEXT = /\.(md|ts|tsx|mts|js|mjs|cjs|json|ya?ml|sh)$|(^|\/)(run|Dockerfile)$/;
const ISSUE_NUMBER = /\bissues? #?\d+\b/i;
/** The lock names packages only; this file states the pattern it looks for. */
const SKIP = new Set(["package-lock.json", "scripts/repo-paths/no-issue-numbers.test.ts"]);

describe("the tree", () => {
  it("names no internal issue number", () => {
    const found = filesUnder(ROOT)
      .filter((file) => TEXT.test(file) && !SKIP.has(file))
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), "utf8")
          .split("\n")
          .flatMap((line, index) =>
            ISSUE_NUMBER.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
          ),
      );
    expect(found).toEqual([]);
  });
});
