/**
 * What the import graph (import-graph.ts) must not hold besides a circle: an
 * import from a lower layer up to one that builds on it (docs/decisions/0075).
 */
import type { ImportGraph } from "./import-graph";

/**
 * Lowest first: a module may import its own layer and those below it. A file
 * belongs to the first entry its path starts with; a file no entry names is
 * reported, so a new folder gets a layer when it is made. No file sits in a
 * layer below its folder's: what the foundation needs lives in the foundation.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // Foundation: what every other part reads.
  [
    "app/env.server.ts",
    "app/site.ts",
    "app/logging/",
    "app/http/",
    "app/privacy/",
    "app/request-scope.server.ts",
  ],
  // The concerns built on it.
  ["app/errors/", "app/refusals.server.ts", "app/routing/", "app/monitoring/"],
  // The page and the app: what the framework loads.
  [
    "app/document/",
    "app/forms/",
    "app/components/",
    "app/routes/",
    "app/routes.ts",
    "app/root.tsx",
    "app/entry.client.tsx",
    "app/entry.server.tsx",
  ],
  // The server around the app.
  ["server/"],
];

/** The layer a file belongs to (its index in `layers`), or undefined when no entry names it. */
export function layerOf(file: string, layers: readonly (readonly string[])[] = LAYERS): number | undefined {
  const at = layers.findIndex((layer) =>
    layer.some((entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry)),
  );
  return at === -1 ? undefined : at;
}

/** Imports from a file up to a layer above its own, and files no layer names. */
export function layerBreaches(graph: ImportGraph, layers: readonly (readonly string[])[] = LAYERS): string[] {
  const breaches: string[] = [];
  for (const [file, targets] of graph) {
    const own = layerOf(file, layers);
    if (own === undefined) {
      breaches.push(`${file} is in no layer`);
      continue;
    }
    for (const target of targets) {
      const theirs = layerOf(target, layers);
      if (theirs !== undefined && theirs > own) breaches.push(`${file} imports ${target}, a layer above it`);
    }
  }
  return breaches;
}
