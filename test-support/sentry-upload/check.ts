/**
 * Whether an upload lets Sentry resolve the stacks of the browser files a build serves: every
 * served chunk carries exactly one debug id, and the map of that id was uploaded under the
 * release the app reports. Two ids in one chunk is how uploads once "succeeded" while every
 * frame stayed minified: the browser SDK reports one, the map may be the other's.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { UploadedFile, UploadRecord } from "./record";

export interface ServedFile {
  /** Relative to the served folder: `assets/x.js`. */
  name: string;
  content: string;
}

/** Every file of a served folder (a build's `client/`). */
export function servedFiles(folder: string): ServedFile[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .map((name) => ({ name, content: readFileSync(path.join(folder, name), "utf8") }));
}

const DEBUG_ID_SNIPPET = /sentry-dbid-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;

/** The debug ids the injected snippets of a chunk register, one a snippet. */
export function debugIdsOf(chunk: string): string[] {
  return [...chunk.matchAll(DEBUG_ID_SNIPPET)].map((match) => match[1] as string);
}

/** The maps uploaded under `release`, by their debug id. */
export function uploadedMaps(record: UploadRecord, release: string): Map<string, UploadedFile> {
  const maps = record.bundles
    .filter((bundle) => bundle.release === release)
    .flatMap((bundle) => bundle.files)
    .filter((file) => file.type === "source_map" && file.debugId);
  return new Map(maps.map((file) => [file.debugId as string, file]));
}

/** Chunks no stack can point into: empty ones (a resource route's), and the framework's route manifest (data). */
const WITHOUT_CODE = /^\s*$|^window\.__(remix|reactRouter)Manifest=/;

/** Rolldown's helpers (Vite 8), in a chunk of their own: no source of the app's, so it has no map to upload. */
const BUNDLER_RUNTIME = /(^|\/)rolldown-runtime-[\w-]+\.js$/;

/** What keeps the served files' stacks from resolving; none when everything would. */
export function uploadProblems(served: ServedFile[], record: UploadRecord, release: string): string[] {
  const problems: string[] = [];
  if (record.bundles.length === 0) problems.push("nothing was uploaded");
  const elsewhere = record.bundles.filter((bundle) => bundle.release !== release);
  for (const bundle of elsewhere) problems.push(`a bundle was uploaded under release ${bundle.release}`);
  const maps = uploadedMaps(record, release);
  const chunks = served.filter((file) => file.name.endsWith(".js") && !WITHOUT_CODE.test(file.content));
  if (chunks.length === 0) problems.push("no browser chunk is served");
  for (const chunk of chunks) {
    const ids = debugIdsOf(chunk.content);
    if (ids.length !== 1) {
      problems.push(`${chunk.name} carries ${ids.length} debug ids (${ids.join(", ")})`);
      continue;
    }
    const id = ids[0] as string;
    const map = maps.get(id);
    if (!map && BUNDLER_RUNTIME.test(chunk.name)) continue;
    if (!map) problems.push(`${chunk.name}: no map with its debug id ${id} under release ${release}`);
    else if ((JSON.parse(map.content) as { debug_id?: string }).debug_id !== id)
      problems.push(`${chunk.name}: the map uploaded for ${id} names another debug id`);
  }
  for (const file of served.filter((file) => file.name.endsWith(".map")))
    problems.push(`${file.name} is left in the build, to be served`);
  return problems;
}
