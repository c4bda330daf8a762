/**
 * Which objects a file's code does not own, for runtime-patches.ts: read with Babel's parser, by
 * name and annotation, without a type checker (a global's name, an import from a package, a
 * binding typed with one of FOREIGN_TYPES, directly, through a function type such as
 * `PreAppHandler`, or by a cast).
 */
import { parse, type ParserPlugin } from "@babel/parser";

/** Node's and the browser's globals, and the built-ins whose prototypes a patch would change. */
export const GLOBALS = new Set(
  "globalThis window self global process console document navigator location history Object Array String Number Boolean Function Promise JSON Math Reflect Symbol Error Date RegExp Map Set URL URLSearchParams Request Response Headers FormData ReadableStream WritableStream AbortController AbortSignal EventTarget fetch Buffer".split(
    " ",
  ),
);
/** Objects Node, the Fetch API, the DOM, Express and Vite make and own. */
const FOREIGN_TYPES = new Set(
  "Request Response Headers FormData ReadableStream IncomingMessage ServerResponse Server Socket ClientRequest Agent Application Express ViteDevServer Window Document Location Console".split(
    " ",
  ),
);
/** Babel's node, read by field name: the walk meets every kind of node. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Field = any;
export type Node = { type: string; start: number; end: number; loc: { start: { line: number } } } & Record<
  string,
  Field
>;

export const parseFile = (source: string, file: string) =>
  parse(source, {
    sourceType: "module",
    plugins: ["typescript", ...(/\.[jt]sx$/.test(file) ? ["jsx" as const] : [])] satisfies ParserPlugin[],
  }).program as unknown as Node;

export function walk(node: unknown, visit: (node: Node) => void): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach((child) => walk(child, visit));
  if (typeof (node as Node).type === "string") visit(node as Node);
  for (const [key, child] of Object.entries(node)) if (key !== "loc") walk(child, visit);
}

/** Local names imported from packages (not `./…` or `~/…`), each with the name it was exported as. */
export function packageImports(program: Node): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== "ImportDeclaration" || /^[.~]/.test(statement.source.value)) continue;
    for (const specifier of statement.specifiers as Node[])
      names.set(specifier.local.name, specifier.imported?.name ?? specifier.local.name);
  }
  return names;
}

/**
 * Whether a type is one of FOREIGN_TYPES or holds one (`Iterable<Server>`, `Request | undefined`); an
 * object type's members are the object's own (`{ vite?: ViteDevServer }` is ours).
 */
export function namesForeignType(annotation: unknown, imports: Map<string, string>): boolean {
  if (!annotation || typeof annotation !== "object") return false;
  if (Array.isArray(annotation)) return annotation.some((child) => namesForeignType(child, imports));
  const node = annotation as Node;
  if (node.type === "TSTypeLiteral") return false;
  if (node.type === "TSTypeReference") {
    const name = node.typeName.type === "Identifier" ? node.typeName.name : node.typeName.right.name;
    if (FOREIGN_TYPES.has(imports.get(name) ?? name)) return true;
  }
  return Object.entries(node).some(([key, child]) => key !== "loc" && namesForeignType(child, imports));
}

/** The names an object pattern binds to members its type literal types as foreign: `{ request }: { request: Request }`. */
export function foreignMembers(pattern: Node, imports: Map<string, string>): Node[] {
  const literal = pattern.typeAnnotation?.typeAnnotation;
  if (pattern.type !== "ObjectPattern" || literal?.type !== "TSTypeLiteral") return [];
  const typed = new Set(
    (literal.members as Node[])
      .filter((member) => namesForeignType(member.typeAnnotation, imports))
      .map((member) => member.key?.name as string),
  );
  return (pattern.properties as Node[])
    .filter((property) => typed.has(property.key?.name))
    .map((property) => property.value);
}

/** `type Name = (a: A, b: B) => R` in every file: for each Name, which of its parameters are foreign. */
export function functionTypes(sources: ReadonlyMap<string, string>): Map<string, boolean[]> {
  const types = new Map<string, boolean[]>();
  for (const [file, source] of sources) {
    const program = parseFile(source, file);
    const imports = packageImports(program);
    walk(program, (node) => {
      if (node.type === "TSTypeAliasDeclaration" && node.typeAnnotation.type === "TSFunctionType")
        types.set(
          node.id.name,
          ((node.typeAnnotation.params ?? node.typeAnnotation.parameters) as Node[]).map((param) =>
            namesForeignType(param.typeAnnotation, imports),
          ),
        );
    });
  }
  return types;
}

/** The expression under casts, `!` and parentheses, and whether a cast on the way named a foreign type. */
export function uncast(node: Node, imports: Map<string, string>): { node: Node; cast: boolean } {
  let cast = false;
  while (
    /^(TSAsExpression|TSSatisfiesExpression|TSTypeAssertion|TSNonNullExpression|ParenthesizedExpression)$/.test(
      node.type,
    )
  ) {
    if (node.typeAnnotation && namesForeignType(node.typeAnnotation, imports)) cast = true;
    node = node.expression;
  }
  return { node, cast };
}

export function rootName(expression: Node): string {
  let node = expression;
  while (node.type === "MemberExpression" || node.type === "CallExpression")
    node = node.object ?? node.callee;
  return node.type === "Identifier" ? (node.name as string) : "";
}
