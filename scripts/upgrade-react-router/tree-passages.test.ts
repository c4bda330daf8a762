import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROSE_FILES, rewriteProse } from "./prose";
import { rewriteSource } from "./source-rewrite";
import { TREE_PASSAGES } from "./tree-passages";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The file as the upgrade's earlier passes leave it: prose rewritten as prose, code as code, the rest as is. */
function afterEarlierPasses(file: string): string {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  if (PROSE_FILES.test(file)) return rewriteProse(text);
  return /\.(ts|tsx|js|mjs|cjs|json|ya?ml|sh)$/.test(file) ? rewriteSource(file, text) : text;
}

describe("the passages the upgrade rewrites about removed files", () => {
  it("are each still in their file, as the earlier passes leave it (a passage not found is a name left behind)", () => {
    for (const [file, passages] of Object.entries(TREE_PASSAGES)) {
      const text = afterEarlierPasses(file);
      for (const [from] of passages) expect(text.includes(from), `${file}: ${from.slice(0, 60)}…`).toBe(true);
    }
  });

  it("leave no name of the upgrade or of a removed adapter file in what they write", () => {
    for (const passages of Object.values(TREE_PASSAGES))
      for (const [, to] of passages)
        expect(to).not.toMatch(
          /upgrade-react-router|npm run (upgrade|test:upgrade)|server\/adapter\/|bench\/documented/,
        );
  });
});
