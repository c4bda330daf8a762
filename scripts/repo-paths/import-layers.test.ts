/**
 * The runtime code's imports hold no circle and go only down the layers
 * (import-layers.ts, import-graph.ts), on this tree and, after the upgrade, on React Router 8's;
 * and the checks find a planted circle, an upward import and a file no layer names.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { importCircles, importedSpecifiers, importGraph } from "./import-graph";
import { LAYERS, layerBreaches } from "./import-layers";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the import graph of app/ and server/", () => {
  const graph = importGraph(ROOT);

  it("has no circle", () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(importCircles(graph)).toEqual([]);
  });

  it("imports only down the layers", () => {
    expect(layerBreaches(graph)).toEqual([]);
  });

  it("places no file in a layer apart from its folder's (no allowance for an import up)", () => {
    const folders = LAYERS.flatMap((layer, at) =>
      layer.filter((entry) => entry.endsWith("/")).map((folder) => ({ folder, at })),
    );
    const apart = LAYERS.flatMap((layer, at) =>
      layer.filter((file) =>
        folders.some(({ folder, at: theirs }) => theirs !== at && file.startsWith(folder)),
      ),
    );
    expect(apart).toEqual([]);
  });
});

describe("the checks, on a tree of their own", () => {
  let root: string | undefined;
  afterEach(() => root && rmSync(root, { recursive: true, force: true }));
  const tree = (files: Record<string, string>) => {
    root = mkdtempSync(path.join(os.tmpdir(), "import-layers-"));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return importGraph(root);
  };

  it("finds a circle closed through a dynamic import and a type-only one, and leaves tests out", () => {
    const graph = tree({
      "app/monitoring/a.tsx": 'export const load = () => import("./b");\n',
      "app/monitoring/b.ts": 'import type { X } from "~/monitoring/c";\nexport type Y = X;\n',
      "app/monitoring/c.ts": 'import { load } from "./a";\nexport type X = typeof load;\n',
      "app/monitoring/a.test.ts": 'import "./a";\nimport "./a.test";\n',
      "app/logging/d.ts": 'export * from "./d";\n',
    });
    expect(importCircles(graph)).toEqual([
      ["app/logging/d.ts"],
      ["app/monitoring/a.tsx", "app/monitoring/b.ts", "app/monitoring/c.ts"],
    ]);
  });

  it("finds an import up the layers and a file in none, and lets imports down through", () => {
    const graph = tree({
      "app/env.server.ts": 'import { parseDsn } from "~/http/sentry-dsn";\nimport "~/monitoring/x";\n',
      "app/http/sentry-dsn.ts": "export const parseDsn = 1;\n",
      "app/monitoring/x.ts": 'import "../env.server";\nimport "@sentry/node";\n',
      "app/root.tsx": 'import "~/monitoring/x";\n',
      "app/elsewhere/y.ts": "export {};\n",
    });
    expect(layerBreaches(graph)).toEqual([
      "app/elsewhere/y.ts is in no layer",
      "app/env.server.ts imports app/monitoring/x.ts, a layer above it",
    ]);
  });

  it("reads every way a module is named", () => {
    const source = [
      'import a from "a";',
      'import type { B } from "b";',
      'export { c } from "c";',
      'export * from "d";',
      'const e = import("e");',
      'type F = typeof import("f");',
      "const g = \"import('g')\";",
    ].join("\n");
    expect(importedSpecifiers(source, "x.tsx")).toEqual(["a", "b", "c", "d", "e", "f"]);
  });
});
