/**
 * The run-time patches in code the app runs: each assignment to, deletion of, or
 * `Object.defineProperty`/`assign` on, a property of an object the app does not own (a global, a
 * package's export, Node's HTTP objects, a Fetch `Request`, `Response` or `Headers`). Read with
 * Babel's parser, as import-graph.ts reads imports. Without a type checker, ownership is decided by
 * name and annotation: a global's name, an import from a package, a binding typed with one of
 * FOREIGN_TYPES (directly, through a function type such as `PreAppHandler`, or by a cast), or taken
 * from one of those. A patch through an untyped alias (`const r: any = request`) is not seen.
 */
import { parse, type ParserPlugin } from "@babel/parser";

export interface RuntimePatch {
  file: string;
  line: number;
  /** The patched property as the code names it, casts left out: `request.formData`, `globalThis[KEY]`. */
  target: string;
}

/** Node's and the browser's globals, and the built-ins whose prototypes a patch would change. */
const GLOBALS = new Set(
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
/** Properties their owners document as meant to be written (a React ref's `current` too): no patch. */
const DOCUMENTED = /^\w+\.status(Code|Message)$|^process\.env\b|^process\.exitCode$|\.current$/;
const DEFINERS =
  /^(Object\.(defineProperty|defineProperties|assign|setPrototypeOf)|Reflect\.(set|defineProperty|deleteProperty|setPrototypeOf))$/;

/** Babel's node, read by field name: the walk meets every kind of node. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Field = any;
type Node = { type: string; start: number; end: number; loc: { start: { line: number } } } & Record<
  string,
  Field
>;

const parseFile = (source: string, file: string) =>
  parse(source, {
    sourceType: "module",
    plugins: ["typescript", ...(/\.[jt]sx$/.test(file) ? ["jsx" as const] : [])] satisfies ParserPlugin[],
  }).program as unknown as Node;

function walk(node: unknown, visit: (node: Node) => void): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach((child) => walk(child, visit));
  if (typeof (node as Node).type === "string") visit(node as Node);
  for (const [key, child] of Object.entries(node)) if (key !== "loc") walk(child, visit);
}

/** Local names imported from packages (not `./…` or `~/…`), each with the name it was exported as. */
function packageImports(program: Node): Map<string, string> {
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
function namesForeignType(annotation: unknown, imports: Map<string, string>): boolean {
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
function foreignMembers(pattern: Node, imports: Map<string, string>): Node[] {
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
function uncast(node: Node, imports: Map<string, string>): { node: Node; cast: boolean } {
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

function rootName(expression: Node): string {
  let node = expression;
  while (node.type === "MemberExpression" || node.type === "CallExpression")
    node = node.object ?? node.callee;
  return node.type === "Identifier" ? (node.name as string) : "";
}

/** The patches in one file; `types` from functionTypes over every file read. */
export function patchesIn(
  file: string,
  source: string,
  types: ReadonlyMap<string, boolean[]> = new Map(),
): RuntimePatch[] {
  const program = parseFile(source, file);
  const imports = packageImports(program);
  const foreign = new Set([...GLOBALS, ...imports.keys()]);
  const render = (expression: Node): string => {
    const { node } = uncast(expression, imports);
    if (node.type === "Identifier") return node.name;
    if (node.type === "MemberExpression")
      return node.computed
        ? `${render(node.object)}[${source.slice(node.property.start, node.property.end)}]`
        : `${render(node.object)}.${node.property.name}`;
    return source.slice(node.start, node.end);
  };
  /** Whether the object an expression reaches into is not ours. */
  const isForeign = (expression: Node): boolean => {
    const { node, cast } = uncast(expression, imports);
    if (cast) return true;
    if (node.type === "Identifier") return foreign.has(node.name);
    if (node.type === "MemberExpression") return isForeign(node.object);
    // What a package's function returns is its (a server); what a global's returns is the caller's (`Object.keys`).
    if (node.type === "CallExpression") return isForeign(node.callee) && !GLOBALS.has(rootName(node.callee));
    if (node.type === "AwaitExpression") return isForeign(node.argument);
    return false;
  };
  const bind = (pattern: Node | null | undefined): void => {
    if (!pattern) return;
    if (pattern.type === "Identifier") foreign.add(pattern.name);
    else walk(pattern, (node) => node.type === "Identifier" && foreign.add(node.name));
  };
  // Bindings, to a fixed point: one taken from a foreign one is foreign too.
  for (let size = -1; size !== foreign.size;) {
    size = foreign.size;
    walk(program, (node) => {
      if (/Function|Method/.test(node.type) && Array.isArray(node.params))
        for (const param of node.params as Node[]) {
          if (namesForeignType(param.typeAnnotation, imports)) bind(param);
          foreignMembers(param, imports).forEach(bind);
        }
      if (node.type === "VariableDeclarator") {
        const annotation = node.id.typeAnnotation;
        if (namesForeignType(annotation, imports) || (node.init && isForeign(node.init))) bind(node.id);
        const named = annotation?.typeAnnotation?.typeName?.name as string | undefined;
        const fn = node.init && uncast(node.init, imports).node;
        if (named && types.has(named) && Array.isArray(fn?.params))
          (fn.params as Node[]).forEach((param, index) => types.get(named)![index] && bind(param));
      }
      if (/^For(Of|In)Statement$/.test(node.type) && isForeign(node.right))
        bind(node.left.declarations?.[0]?.id ?? node.left);
    });
  }
  const patches: RuntimePatch[] = [];
  const found = (at: Node, target: string) => {
    if (!DOCUMENTED.test(target)) patches.push({ file, line: at.loc.start.line, target });
  };
  walk(program, (node) => {
    const member =
      node.type === "AssignmentExpression"
        ? node.left
        : node.type === "UpdateExpression" || (node.type === "UnaryExpression" && node.operator === "delete")
          ? node.argument
          : undefined;
    const written = member && uncast(member, imports).node;
    if (written?.type === "MemberExpression" && isForeign(written.object)) found(node, render(written));
    if (
      node.type === "CallExpression" &&
      DEFINERS.test(render(node.callee)) &&
      node.arguments[0] &&
      isForeign(node.arguments[0])
    ) {
      const key = node.arguments[1] as Node | undefined;
      const object = render(node.arguments[0]);
      found(
        node,
        key?.type === "StringLiteral" && !/assign|Prototype/.test(render(node.callee))
          ? `${object}.${key.value}`
          : `${render(node.callee)}(${object})`,
      );
    }
  });
  return patches;
}
