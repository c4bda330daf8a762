import { parse, type ParserPlugin } from "@babel/parser";

type Statement = ReturnType<typeof parse>["program"]["body"][number];
type ImportDeclaration = Extract<Statement, { type: "ImportDeclaration" }>;
/** What the walk reads of any node; identifiers are told by their `type`. */
interface Node {
  type: string;
  start?: number | null;
  end?: number | null;
  name?: string;
}

/**
 * The mechanical part of the upgrade, one source file at a time, as React
 * Router's codemod does it for a Remix 2 app: imports of `@remix-run/*` split
 * by where each export lives in React Router 8, the two components that
 * changed names renamed where they are used, and the names of packages,
 * binaries and browser globals that appear as text (resolved paths, shape
 * tests, log banners) replaced.
 */

/** Text that names the same thing on React Router 8, replaced wherever it appears, in this order. */
export const TOKENS: readonly (readonly [string, string])[] = [
  ["virtual:remix/server-build", "virtual:react-router/server-build"],
  // Before "@remix-run/serve", which it starts with.
  ["@remix-run/server-runtime", "react-router"],
  ["@remix-run/serve", "@react-router/serve"],
  ["@remix-run/express", "@react-router/express"],
  ["@remix-run/fs-routes", "@react-router/fs-routes"],
  ["@remix-run/route-config", "@react-router/dev/routes"],
  ["@sentry/remix", "@sentry/react"],
  ["remix-serve", "react-router-serve"],
  ["__remixManifest", "__reactRouterManifest"],
  ["__remixRouteModules", "__reactRouterRouteModules"],
  ["__remixRouter", "__reactRouterDataRouter"],
  ["__remixContext", "__reactRouterContext"],
  ["remix.config.js", "react-router.config.ts"],
  // The spans of loaders and actions, as React Router's instrumentations give them (docs/decisions/0085).
  ["loader.remix", "function.react_router.loader"],
  ["action.remix", "function.react_router.action"],
];

/** Exports of `@remix-run/node` that live in `@react-router/node`; the rest moved to `react-router`. */
const NODE_ONLY = new Set([
  "createFileSessionStorage",
  "createReadableStreamFromReadable",
  "readableStreamToString",
  "writeAsyncIterableToWritable",
  "writeReadableStreamToWritable",
]);

/** Where an export of a Remix package lives on React Router 8, and under which name. */
export function moveExport(module: string, name: string): { module: string; name: string } | undefined {
  switch (module) {
    case "@remix-run/react":
      if (name === "RemixBrowser") return { module: "react-router/dom", name: "HydratedRouter" };
      if (name === "RemixServer") return { module: "react-router", name: "ServerRouter" };
      return { module: "react-router", name };
    case "@remix-run/node":
      // With single fetch, `json()` and `defer()` are `data()` (React Router 8 has neither).
      if (name === "json" || name === "defer") return { module: "react-router", name: "data" };
      return { module: NODE_ONLY.has(name) ? "@react-router/node" : "react-router", name };
    case "@remix-run/router":
      return { module: "react-router", name };
    default:
      return undefined;
  }
}

/** Local names that change with the import (unaliased renamed exports), and other names that read better renamed. */
const IDENTIFIER_RENAMES: Record<string, string> = { remixContext: "routerContext" };

interface Edit {
  start: number;
  end: number;
  text: string;
}

function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** The import declaration `node` rewritten for React Router 8, or undefined when it imports no Remix package. */
function rewriteImport(
  node: ImportDeclaration,
  text: string,
  renames: Map<string, string>,
): string | undefined {
  const from = node.source.value;
  if (!moveExport(from, "") || node.specifiers.length === 0) return undefined;
  const byModule = new Map<string, string[]>();
  for (const element of node.specifiers) {
    if (element.type !== "ImportSpecifier")
      throw new Error(`only named imports of ${from} can be moved: ${text.slice(node.start!, node.end!)}`);
    const imported = element.imported.type === "Identifier" ? element.imported.name : element.imported.value;
    const local = element.local.name;
    const renamed = imported !== local;
    const target = moveExport(from, imported)!;
    if (!renamed && target.name !== imported) renames.set(local, target.name);
    const localName = renamed ? local : target.name;
    const spec = target.name === localName ? localName : `${target.name} as ${localName}`;
    const list = byModule.get(target.module) ?? [];
    const specifier = element.importKind === "type" ? `type ${spec}` : spec;
    // `json` and `data` both become `data`: imported once.
    if (!list.includes(specifier)) list.push(specifier);
    byModule.set(target.module, list);
  }
  const typeOnly = node.importKind === "type" ? "type " : "";
  return [...byModule]
    .map(([module, specs]) => `import ${typeOnly}{ ${specs.join(", ")} } from "${module}";`)
    .join("\n");
}

/** Every node under `node` (Babel's AST is plain objects: its children are the object- and array-valued fields). */
function walk(node: Node, visit: (node: Node) => boolean): void {
  if (!visit(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === "loc" || key === "leadingComments" || key === "trailingComments" || key === "innerComments")
      continue;
    for (const child of Array.isArray(value) ? value : [value])
      if (child && typeof child === "object" && typeof (child as Node).type === "string")
        walk(child as Node, visit);
  }
}

/** One source file's text on React Router 8 (TypeScript or JavaScript, with or without JSX). */
/**
 * Blocks marked `upgrade-only` (`<!-- upgrade-only -->`, `# upgrade-only` or
 * `// upgrade-only` up to its `/upgrade-only` line; npm run init reads the
 * same marks, docs/day-one.md): they are about the upgrade, which the
 * upgraded tree no longer has.
 */
const UPGRADE_ONLY =
  /^[ \t]*(?:<!-- upgrade-only\b[^\n]*-->|# upgrade-only\b[^\n]*|\/\/ upgrade-only\b[^\n]*)[ \t]*\n[\s\S]*?^[ \t]*(?:<!-- \/upgrade-only -->|# \/upgrade-only|\/\/ \/upgrade-only)[ \t]*\n/gm;

export const withoutUpgradeOnly = (text: string) => text.replace(UPGRADE_ONLY, "");

export function rewriteSource(fileName: string, text: string): string {
  let out = withoutUpgradeOnly(text);
  for (const [from, to] of TOKENS) out = out.split(from).join(to);
  if (!/\.(m|c)?[jt]sx?$/.test(fileName)) return out;

  // Babel's parser, a stable public API (TypeScript's own compiler API goes with TypeScript 7).
  const plugins: ParserPlugin[] = fileName.endsWith("x") ? ["typescript", "jsx"] : ["typescript"];
  let program;
  try {
    program = parse(out, { sourceType: "module", plugins }).program;
  } catch (error) {
    throw new Error(`${fileName} does not parse, so its imports cannot be moved: ${String(error)}`);
  }
  const renames = new Map(Object.entries(IDENTIFIER_RENAMES));
  const edits: Edit[] = [];
  for (const statement of program.body) {
    if (statement.type !== "ImportDeclaration") continue;
    const rewritten = rewriteImport(statement, out, renames);
    if (rewritten !== undefined)
      edits.push({ start: statement.start!, end: statement.end!, text: rewritten });
  }
  walk(program as Node, (node) => {
    if (node.type === "ImportDeclaration") return false;
    const name = node.type === "Identifier" || node.type === "JSXIdentifier" ? node.name : undefined;
    // The name only: Babel's identifier of a parameter also spans its type annotation.
    if (name !== undefined && renames.has(name))
      edits.push({ start: node.start!, end: node.start! + name.length, text: renames.get(name)! });
    return true;
  });
  return applyEdits(out, edits);
}
