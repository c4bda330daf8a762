// A page or data request would fail the client folder's lookup: its files are read once (docs/decisions/0102).
import { readdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";

export type Handler<Req = IncomingMessage, Res = ServerResponse, Next = (error?: unknown) => void> = (
  request: Req,
  response: Res,
  next: Next,
) => void;

export interface ClientFiles {
  files: Set<string>;
  folders: Set<string>;
}

/** The URL paths of `root`'s files and folders: none for a folder that is not there, undefined for one not read whole. */
export function clientFiles(root: string): ClientFiles | undefined {
  const paths: ClientFiles = { files: new Set(), folders: new Set() };
  let entries: { name: string; parentPath: string; isDirectory: () => boolean }[] = [];
  try {
    entries = readdirSync(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? paths : undefined;
  }
  for (const entry of entries) {
    const url = "/" + path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
    (entry.isDirectory() ? paths.folders : paths.files).add(url);
  }
  return paths;
}

const ITS_TO_JUDGE = /^[^/]|%|\\|\/\/|\/\.\.?(\/|$)/; // absolute-form, encoded, `\\`, `//`, `.` or `..` segments

/** Whether serve-static could answer `pathname`: a file, a folder's index.html, or the folder's redirect. */
export function mayServe(pathname: string, { files, folders }: ClientFiles): boolean {
  if (ITS_TO_JUDGE.test(pathname)) return true;
  if (pathname.endsWith("/")) return files.has(`${pathname}index.html`);
  return files.has(pathname) || folders.has(pathname);
}

const pathOf = (url = "/") => url.split(/[?#]/, 1)[0]!;

/** serve-static's `lookUp` of `root`, asked only for what `root` held at start, under its name (adapter/public-lookup.ts finds it by it). */
export function onlyClientFiles<
  Req extends { url?: string; originalUrl?: string },
  Res,
  Next extends () => void,
>(lookUp: Handler<Req, Res, Next>, root: string): Handler<Req, Res, Next> {
  const paths = clientFiles(path.resolve(root));
  if (!paths) return lookUp;
  return function serveStatic(request, response, next) {
    const pathname = pathOf(request.url);
    const mountWithoutSlash = pathname === "/" && !pathOf(request.originalUrl).endsWith("/"); // its redirect
    if (mountWithoutSlash || mayServe(pathname, paths)) lookUp(request, response, next);
    else next();
  };
}
