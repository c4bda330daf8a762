/**
 * What a file names that must exist: repository paths and `npm run` scripts.
 * Read from Markdown code (spans and fenced blocks; links are remark's job,
 * npm run lint:docs) and from source comments, the two places that outlive
 * the files they name. Precision over reach: a path counts only when its first
 * segment is one of the repository's own top-level folders, so build output
 * (`build/`), installed packages, other machines' paths (`/app/…`) and paths
 * relative to another folder are never taken for one.
 */
import { parse, type ParserPlugin } from "@babel/parser";

export interface Reference {
  /** `file`: a source file named by itself (`shutdown.ts`). */
  kind: "path" | "script" | "file";
  name: string;
  line: number;
}

/** Characters a path is made of; anything else ends it. */
const PATH = /(?<![\w@./:-])(\.?[\w@][\w@.-]*(?:\/[\w@.+-]+)+\/?)/g;
const NPM_RUN = /\bnpm run(?: --?[\w-]+)* ([\w:.-]*[\w])/g;

/** `a/b.ts`, `a/b/` and `a/b.ts:12` name a path; globs and templates (`*`, `{`, `<`, `$`) do not. */
export function pathsIn(text: string, topLevel: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(PATH)) {
    const end = match.index + match[0].length;
    if (/^[*{<$]/.test(text.slice(end, end + 1))) continue;
    const name = match[1]!.replace(/[.:]+$/, "");
    if (topLevel.has(name.split("/")[0]!)) found.push(name);
  }
  return found;
}

/** Our sources' extensions: a package's files (`cli.js`, `plugin.js`) are named too, and are not ours. */
const FILE = /(?<![\w@./:$-])([\w][\w.-]*\.(?:tsx?|mts|mjs))(?![\w/-])/g;

/** `site.ts`, `shutdown.ts`: a source file named by itself (a path within a package is not). */
export function fileNamesIn(text: string): string[] {
  return [...text.matchAll(FILE)].map((match) => match[1]!);
}

export function scriptsIn(text: string): string[] {
  return [...text.matchAll(NPM_RUN)].map((match) => match[1]!);
}

/** Markdown's code: inline spans and fenced blocks, each with the line it starts on. */
export function markdownCode(markdown: string): { text: string; line: number }[] {
  const pieces: { text: string; line: number }[] = [];
  const lines = markdown.split("\n");
  let fence: { text: string[]; line: number } | undefined;
  lines.forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fence) pieces.push({ text: fence.text.join("\n"), line: fence.line });
      fence = fence ? undefined : { text: [], line: index + 2 };
      return;
    }
    if (fence) return void fence.text.push(line);
    for (const span of line.matchAll(/(`+)(.+?)\1/g)) pieces.push({ text: span[2]!, line: index + 1 });
  });
  return pieces;
}

/**
 * The comments of a JavaScript or TypeScript file, from a parser (strings, templates and regexes
 * are not comments). Babel's: its parse result and options are a stable public interface, where
 * the TypeScript compiler's scanner goes with TypeScript 7.
 */
export function scriptComments(source: string, fileName: string): { text: string; line: number }[] {
  const typescript = /\.[cm]?tsx?$/.test(fileName);
  const jsx = /\.[jt]sx$/.test(fileName);
  const plugins: ParserPlugin[] = [
    ...(typescript ? ["typescript" as const] : []),
    ...(jsx ? ["jsx" as const] : []),
  ];
  const { comments } = parse(source, { sourceType: "unambiguous", plugins, errorRecovery: true });
  return (comments ?? []).map((comment) => ({
    text: source.slice(comment.start!, comment.end!),
    line: comment.loc!.start.line,
  }));
}

/** `#` comments of shell scripts, YAML and Dockerfiles (a `#` at a line's start or after a space). */
export function hashComments(source: string): { text: string; line: number }[] {
  return source.split("\n").flatMap((line, index) => {
    const match = /(?:^|\s)#(?!!)(.*)$/.exec(line);
    return match ? [{ text: match[1]!, line: index + 1 }] : [];
  });
}

const SCRIPT = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
const HASH = /\.(sh|ya?ml)$|(^|\/)(Dockerfile|\.dockerignore|\.env\.example|run)$/;

/** Every path and script a file names where it matters, or none for a kind of file we do not read. */
export function referencesIn(fileName: string, source: string, topLevel: ReadonlySet<string>): Reference[] {
  const markdown = fileName.endsWith(".md");
  const pieces = markdown
    ? markdownCode(source)
    : SCRIPT.test(fileName)
      ? scriptComments(source, fileName)
      : HASH.test(fileName)
        ? hashComments(source)
        : [];
  const rows = (list: { text: string; line: number }[]) =>
    list.flatMap(({ text, line }) => text.split("\n").map((row, offset) => ({ row, line: line + offset })));
  return [
    ...rows(pieces).flatMap(({ row, line }) =>
      pathsIn(row, topLevel).map((name) => ({ kind: "path" as const, name, line })),
    ),
    ...rows(pieces).flatMap(({ row, line }) =>
      fileNamesIn(row).map((name) => ({ kind: "file" as const, name, line })),
    ),
    // A script named after `npm run` counts in a Markdown file's prose too.
    ...rows(markdown ? [{ text: source, line: 1 }] : pieces).flatMap(({ row, line }) =>
      scriptsIn(row).map((name) => ({ kind: "script" as const, name, line })),
    ),
  ];
}
