/**
 * The run-time patches in code the app runs: each assignment to, deletion of, or
 * `Object.defineProperty`/`assign` on, a property of an object the app does not own (a global, a
 * package's export, Node's HTTP objects, a Fetch `Request`, `Response` or `Headers`). Read with
 * Babel's parser, as import-graph.ts reads imports; which objects are not ours, by name and
 * annotation: foreign-objects.ts. A patch through an untyped alias (`const r: any = request`) is
 * not seen.
 */
import {
  foreignMembers,
  GLOBALS,
  namesForeignType,
  packageImports,
  parseFile,
  rootName,
  uncast,
  walk,
  type Node,
} from "./foreign-objects";

export { functionTypes } from "./foreign-objects";

export interface RuntimePatch {
  file: string;
  line: number;
  /** The patched property as the code names it, casts left out: `request.formData`, `globalThis[KEY]`. */
  target: string;
}

/** Properties their owners document as meant to be written (a React ref's `current` too): no patch. */
const DOCUMENTED = /^\w+\.status(Code|Message)$|^process\.env\b|^process\.exitCode$|\.current$/;
const DEFINERS =
  /^(Object\.(defineProperty|defineProperties|assign|setPrototypeOf)|Reflect\.(set|defineProperty|deleteProperty|setPrototypeOf))$/;

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
