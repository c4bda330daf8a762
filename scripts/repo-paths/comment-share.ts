/**
 * The share of the runtime's lines that are comments only: a comment says why, one line where it can,
 * so a rising share means restatements of the code or history are creeping back.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { filesUnder } from "./check-tree";
import { scriptComments } from "./references";

/** What runs in production or development, either tree: its own code, tests and type declarations left out. */
const RUNTIME = /^(app|server|vite)\/.*\.(ts|tsx|mjs)$|^(boot\.mjs|server\.mjs|vite\.config\.ts)$/;
const NOT_RUNTIME = /\.test\.|\.d\.ts$/;

export function runtimeFiles(root: string): string[] {
  return ["app/", "server/", "vite/", "boot.mjs", "server.mjs", "vite.config.ts"]
    .filter((entry) => existsSync(path.join(root, entry)))
    .flatMap((entry) => (entry.endsWith("/") ? filesUnder(root, entry) : [entry]))
    .filter((file) => RUNTIME.test(file) && !NOT_RUNTIME.test(file));
}

/** Non-blank lines, and those of them that hold nothing but comment. */
export function commentLines(file: string, source: string): { comment: number; lines: number } {
  const before = source.split("\n");
  let offset = 0;
  const lineStarts = before.map((row) => (offset += row.length + 1) - row.length - 1);
  let code = source;
  for (const { text, line } of scriptComments(source, file)) {
    const at = source.indexOf(text, lineStarts[line - 1]);
    code = code.slice(0, at) + text.replace(/[^\n]/g, " ") + code.slice(at + text.length);
  }
  const after = code.split("\n");
  const lines = before.filter((row) => row.trim() !== "").length;
  const comment = before.filter((row, index) => row.trim() !== "" && after[index]!.trim() === "").length;
  return { comment, lines };
}

export function commentShare(root: string): { comment: number; lines: number } {
  return runtimeFiles(root)
    .map((file) => commentLines(file, readFileSync(path.join(root, file), "utf8")))
    .reduce((sum, { comment, lines }) => ({ comment: sum.comment + comment, lines: sum.lines + lines }), {
      comment: 0,
      lines: 0,
    });
}
