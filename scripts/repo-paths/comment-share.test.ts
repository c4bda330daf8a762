/**
 * Comments in the runtime carry a reason and no more: the share of comment-only lines stays under
 * MAX_PERCENT, on this tree and the upgraded one (lower it as comments are trimmed; never raise it).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commentLines, commentShare, runtimeFiles } from "./comment-share";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MAX_PERCENT = 8.0;

describe("the runtime's comments", () => {
  it("are counted by line, a comment after code not counted, a block comment every line of it", () => {
    const source = "/**\n * Why.\n */\nconst a = 1; // what\n\n// why\nconst b = `// not one`;\n";
    expect(commentLines("a.ts", source)).toEqual({ comment: 4, lines: 6 });
  });

  it("take the runtime's files only: no test, no type declaration, no script", () => {
    const files = runtimeFiles(ROOT);
    // Each tree has one entry script at its top.
    expect(files.filter((file) => /^(boot|server)\.mjs$/.test(file))).toHaveLength(1);
    expect(files).toContain("server/boot.ts");
    expect(files.filter((file) => /\.test\.|\.d\.ts$|^scripts\//.test(file))).toEqual([]);
  });

  it(`are under ${MAX_PERCENT} % of its lines`, () => {
    const { comment, lines } = commentShare(ROOT);
    expect((100 * comment) / lines).toBeLessThan(MAX_PERCENT);
  });
});
