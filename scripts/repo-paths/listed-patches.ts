/**
 * The run-time patches a tree's adapter README lists (its "Run-time patches" section: a row per
 * file, naming in code what it patches, as runtime-patches.ts names it), and the code a tree runs.
 * The upgrade's own test puts the upgraded tree together before the upgrade runs.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { runtimeFiles } from "./import-graph";
import { functionTypes, patchesIn, type RuntimePatch } from "./runtime-patches";

export const ADAPTER_README = "server/adapter/README.md";
/** The code that runs: the app, the server around it, and the boot of each tree. */
export const FOLDERS = ["app", "server"];
export const BOOTS = ["boot.mjs", "server.mjs"];

/** Each runtime file of a tree, by its path in that tree, with where to read it. */
export type Tree = Map<string, string>;

export function thisTree(root: string): Tree {
  const files = [
    ...runtimeFiles(root, FOLDERS),
    ...BOOTS.filter((file) => existsSync(path.join(root, file))),
  ];
  return new Map(files.map((file) => [file, file]));
}

/** The patches in a tree's code, by their paths in that tree. */
export function treePatches(root: string, tree: Tree): RuntimePatch[] {
  const sources = new Map(
    [...tree].map(([file, from]) => [file, readFileSync(path.join(root, from), "utf8")]),
  );
  const types = functionTypes(sources);
  return [...sources].flatMap(([file, source]) => patchesIn(file, source, types));
}

export interface ListedPatch {
  file: string;
  targets: string[];
}

const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** The rows of the README's "Run-time patches" section; a file in the first cell is the README's folder's, else the tree's. */
export function listedPatches(readme: string, isFile: (file: string) => boolean): ListedPatch[] {
  const section = /^## Run-time patches[^\n]*\n([\s\S]*?)(?=^## |$(?![\s\S]))/m.exec(readme)?.[1] ?? "";
  return section
    .split("\n")
    .filter((row) => row.startsWith("|") && !/^\|[\s|:-]+\|$/.test(row))
    .flatMap((row) => {
      const named = codeSpans(row.split("|")[1] ?? "")[0];
      if (!named) return [];
      const beside = path.posix.normalize(path.posix.join(path.posix.dirname(ADAPTER_README), named));
      const targets = codeSpans(row.split("|").slice(2).join("|")).map((span) => span.replace(/\(\)$/, ""));
      return [{ file: isFile(beside) ? beside : named, targets }];
    });
}

/** The patches no row lists: their file's row does not name them in code. */
export function unlistedPatches(patches: RuntimePatch[], listed: ListedPatch[]): RuntimePatch[] {
  return patches.filter(
    ({ file, target }) => !listed.some((row) => row.file === file && row.targets.includes(target)),
  );
}

/** The patches of `tree` that its README at `readme` does not list, as `file:line: target`. */
export function unlistedIn(root: string, tree: Tree, readme: string): string[] {
  const isFile = (file: string) => tree.has(file) || existsSync(path.join(root, file));
  const listed = listedPatches(readFileSync(path.join(root, readme), "utf8"), isFile);
  return unlistedPatches(treePatches(root, tree), listed).map(
    ({ file, line, target }) => `${file}:${line}: ${target}`,
  );
}
