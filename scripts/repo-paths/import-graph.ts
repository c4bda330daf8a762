/**
 * The import graph of the runtime code (app/ and server/, tests left out), and
 * its circles. Read with Babel's parser, as references.ts reads comments:
 * TypeScript 7 has no compiler API in JavaScript.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse, type ParserPlugin } from "@babel/parser";

export type ImportGraph = Map<string, string[]>;

const RUNTIME = /\.(?:[cm]?[jt]sx?)$/;
const NOT_RUNTIME = /\.test\.[cm]?[jt]sx?$|\.d\.ts$/;
const MODULE_NODES = new Set([
  "ImportDeclaration",
  "ImportExpression",
  "ExportNamedDeclaration",
  "ExportAllDeclaration",
]);
const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx"];

/** The runtime files under `folders` of `root`, as paths relative to it with `/`. */
export function runtimeFiles(root: string, folders: readonly string[]): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const name = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return walk(name);
      return RUNTIME.test(name) && !NOT_RUNTIME.test(name) ? [name] : [];
    });
  return folders
    .filter((folder) => existsSync(path.join(root, folder)))
    .flatMap(walk)
    .sort();
}

/** Every module a file names: imports (type-only and dynamic ones too) and re-exports. */
export function importedSpecifiers(source: string, fileName: string): string[] {
  const plugins: ParserPlugin[] = ["typescript", ...(/\.[jt]sx$/.test(fileName) ? ["jsx" as const] : [])];
  const { program } = parse(source, { sourceType: "module", plugins, createImportExpressions: true });
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(visit);
    const { type, source: from } = node as Partial<Record<string, { value?: unknown }>> & {
      type?: string;
    };
    // Babel 8 names the module of `typeof import("x")` as `source`, as every other form does.
    const named = type === "TSImportType" || MODULE_NODES.has(type ?? "") ? from : undefined;
    if (typeof named?.value === "string") found.push(named.value);
    for (const [key, child] of Object.entries(node)) if (key !== "loc") visit(child);
  };
  visit(program);
  return found;
}

/** The file a specifier names, relative to `root`; undefined for a package. */
export function resolveImport(root: string, from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("~/")) base = `app/${specifier.slice(2)}`;
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return undefined;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return base;
}

/** Each runtime file of app/ and server/ with the runtime files of those folders it imports. */
export function importGraph(root: string, folders: readonly string[] = ["app", "server"]): ImportGraph {
  const files = runtimeFiles(root, folders);
  const inGraph = new Set(files);
  return new Map(
    files.map((file) => {
      const source = readFileSync(path.join(root, file), "utf8");
      const targets = importedSpecifiers(source, file)
        .map((specifier) => resolveImport(root, file, specifier))
        .filter((target): target is string => target !== undefined && inGraph.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** The circles: each strongly connected set of two or more files, or a file importing itself (Tarjan). */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1 || graph.get(file)?.includes(file)) circles.push(members.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return circles;
}
