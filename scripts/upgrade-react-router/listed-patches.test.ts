/**
 * The upgraded tree's adapter README (react-router-8/server/adapter/README.md) lists every run-time
 * patch of the code that tree runs, checked before the upgrade runs: this tree's app/ and server/,
 * less what the upgrade removes (removed-files.ts), with the upgrade's own files in their place.
 * It goes with the upgrade; the upgraded tree then checks itself (scripts/repo-paths/runtime-patches.test.ts).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UPGRADE_OVERLAY } from "../repo-paths/check-tree";
import { runtimeFiles } from "../repo-paths/import-graph";
import {
  ADAPTER_README,
  BOOTS,
  FOLDERS,
  thisTree,
  unlistedIn,
  type Tree,
} from "../repo-paths/listed-patches";
import { REMOVED, RENAMED } from "./removed-files";

const ROOT = path.resolve(import.meta.dirname, "../..");

function upgradedTree(): Tree {
  const tree: Tree = new Map();
  const removed = (file: string) => REMOVED.some((gone) => file === gone || file.startsWith(`${gone}/`));
  for (const file of thisTree(ROOT).keys()) if (!removed(file)) tree.set(RENAMED[file] ?? file, file);
  const overlay = [
    ...runtimeFiles(
      ROOT,
      FOLDERS.map((folder) => UPGRADE_OVERLAY + folder),
    ),
    ...BOOTS.map((file) => UPGRADE_OVERLAY + file).filter((file) => existsSync(path.join(ROOT, file))),
  ];
  for (const file of overlay) tree.set(file.slice(UPGRADE_OVERLAY.length), file);
  return tree;
}

describe("the upgraded tree's adapter README", () => {
  it("lists every run-time patch of the code that tree runs", () => {
    const tree = upgradedTree();
    expect(tree.has("server/adapter/http-server.ts")).toBe(false);
    expect(tree.get("server/adapter/framework-plugin.ts")).toBe(
      `${UPGRADE_OVERLAY}server/adapter/framework-plugin.ts`,
    );
    expect(unlistedIn(ROOT, tree, UPGRADE_OVERLAY + ADAPTER_README)).toEqual([]);
  });
});
