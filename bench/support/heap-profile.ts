/**
 * What a V8 sampling heap profile (`node --heap-prof`, written at exit) says is still live, by owner:
 * each sample goes to the frame nearest the allocation that is a package's or the app's own code,
 * so a Buffer that node:http allocates for the SDK counts as the SDK's.
 */

import { SERVER_SDK_CHUNK } from "../../app/monitoring/server-sdk.server";
import { BUNDLED_SDK } from "./cpu-profile";

export interface HeapProfileNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: HeapProfileNode[];
}
export interface HeapProfile {
  head: HeapProfileNode;
}

/** Packages that are the Sentry SDK (and what it brings); the framework's; the rest is "other packages". */
const SDK = /^(@sentry|@opentelemetry|import-in-the-middle|require-in-the-middle)\b/;
const FRAMEWORK = /^(@remix-run|react-router|react-dom|react|isbot|cookie|set-cookie-parser|turbo-stream)\b/;

/** The module a frame's script belongs to: a package name, `app build`, or undefined (Node, V8, none). */
export function moduleOf(url: string): string | undefined {
  // Sources and code of the modules being loaded: neither the importer's nor the imported's own data.
  if (url.startsWith("node:internal/modules/")) return LOADING;
  if (SERVER_SDK_CHUNK.test(url)) return BUNDLED_SDK;
  const packaged = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (packaged) return packaged[1];
  if (/\/(build-bench[^/]*|build-routes-\d+|build)\/server\/|\/boot\.mjs$|\/(app|server)\//.test(url))
    return "app build";
  return undefined;
}

const LOADING = "module loading";

export function ownerOf(module: string | undefined): string {
  if (module === undefined) return "Node/V8 (no package frame)";
  if (module === LOADING) return "module loading (sources, code)";
  if (module === "app build") return "ours (the app's build)";
  if (SDK.test(module)) return "Sentry SDK";
  if (FRAMEWORK.test(module)) return "framework (Remix, React)";
  return "other packages";
}

/** Live bytes by owner and by module (MB), from the profile's tree. */
export function summarizeHeapProfile(profile: HeapProfile): {
  byOwner: Map<string, number>;
  byModule: Map<string, number>;
  totalMb: number;
} {
  const byOwner = new Map<string, number>();
  const byModule = new Map<string, number>();
  let total = 0;
  const add = (map: Map<string, number>, key: string, bytes: number) =>
    map.set(key, (map.get(key) ?? 0) + bytes / 2 ** 20);
  const visit = (node: HeapProfileNode, nearest: string | undefined) => {
    const module = moduleOf(node.callFrame.url) ?? nearest;
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(byOwner, ownerOf(module), node.selfSize);
      add(byModule, module ?? "Node/V8", node.selfSize);
    }
    for (const child of node.children) visit(child, module);
  };
  visit(profile.head, undefined);
  return { byOwner, byModule, totalMb: total / 2 ** 20 };
}

/** The summary as two Markdown tables: by owner, then by module (those of at least `leastMb`). */
export function heapMarkdown(heap: ReturnType<typeof summarizeHeapProfile>, leastMb = 0.1): string {
  const rows = (map: Map<string, number>, least: number) =>
    [...map]
      .filter(([, mb]) => mb >= least)
      .sort((a, b) => b[1] - a[1])
      .map(([name, mb]) => `| ${mb.toFixed(1)} | ${name} |`);
  return [
    `Live heap, sampled: ${heap.totalMb.toFixed(1)} MiB.`,
    "",
    ...["| MiB | owner |", "| --: | --- |", ...rows(heap.byOwner, 0), ""],
    ...[`| MiB | module (≥ ${leastMb}) |`, "| --: | --- |", ...rows(heap.byModule, leastMb)],
  ].join("\n");
}
