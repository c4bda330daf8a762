/**
 * Every run-time patch of an object the app does not own is listed in the adapter README, with
 * its file and what it patches (listed-patches.ts, runtime-patches.ts); and a planted patch the
 * README does not list fails. The upgrade's own tests check the upgraded tree's list before it runs.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ADAPTER_README,
  listedPatches,
  thisTree,
  treePatches,
  unlistedIn,
  unlistedPatches,
} from "./listed-patches";
import { functionTypes, patchesIn } from "./runtime-patches";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the adapter README lists every run-time patch", () => {
  it("on this tree", () => {
    const tree = thisTree(ROOT);
    expect(treePatches(ROOT, tree).length).toBeGreaterThan(5);
    expect(unlistedIn(ROOT, tree, ADAPTER_README)).toEqual([]);
  });
});

describe("the check, on sources of its own", () => {
  const found = (source: string, file = "server/x.ts", types = new Map<string, boolean[]>()) =>
    patchesIn(file, source, types).map(({ line, target }) => `${line}: ${target}`);

  it("finds each way of patching what is not ours", () => {
    const source = [
      'import http, { type IncomingMessage as Incoming } from "node:http";',
      'import { createRequestHandler } from "@remix-run/express";',
      "http.createServer = () => undefined as never;",
      "export function f(request: Request, servers: Iterable<http.Server>, message: unknown) {",
      "  request.formData = async () => new FormData();",
      "  for (const server of servers) server.close = () => server;",
      "  (message as Incoming & Record<symbol, unknown>)[Symbol.for('x')] = true;",
      "  const { headers } = request;",
      "  delete headers.append;",
      "  Object.defineProperty(globalThis, 'fetch', { value: null });",
      "  (globalThis as { [key: symbol]: unknown })[KEY] = 1;",
      "  createRequestHandler.x = 1;",
      "  process.stderr.write = () => true;",
      "}",
      "const KEY = Symbol();",
    ].join("\n");
    expect(found(source)).toEqual([
      "3: http.createServer",
      "5: request.formData",
      "6: server.close",
      "7: message[Symbol.for('x')]",
      "9: headers.append",
      "10: globalThis.fetch",
      "11: globalThis[KEY]",
      "12: createRequestHandler.x",
      "13: process.stderr.write",
    ]);
  });

  it("reads a handler's parameters from its function type", () => {
    const types = functionTypes(
      new Map([
        [
          "server/handler.ts",
          'import type { IncomingMessage } from "node:http";\nexport type Handler = (request: IncomingMessage, n: number) => boolean;\n',
        ],
      ]),
    );
    const source =
      'import type { Handler } from "./handler";\nexport const h: Handler = (request, n) => {\n  request.url = "/";\n  return n > 0;\n};\n';
    expect(found(source, "server/h.ts", types)).toEqual(["3: request.url"]);
  });

  it("leaves our own objects, and what their owners document as writable, alone", () => {
    const source = [
      'import { useRef } from "react";',
      'import type { ViteDevServer } from "vite";',
      "export function f(response: import('node:http').ServerResponse, event: { transaction?: string }) {",
      "  const own: Record<string, string> = {};",
      "  own.x = 'y';",
      "  const keys = Object.keys(own);",
      "  keys.length = 0;",
      "  const dev: { vite?: ViteDevServer } = {};",
      "  dev.vite = undefined;",
      "  event.transaction = 'x';",
      "  response.statusCode = 400;",
      "  process.env.FORCE_COLOR = '1';",
      "  useRef(0).current = 1;",
      "  const ref = useRef(0);",
      "  ref.current = 2;",
      "}",
    ].join("\n");
    expect(found(source, "app/x.tsx")).toEqual([]);
  });

  it("fails on a planted patch the README does not list, and passes it once listed", () => {
    const readme = (rows: string) =>
      `# x\n\n## Run-time patches\n\n| file | patch |\n| --- | --- |\n${rows}\n## Other assumptions\n\n| \`y.ts\` | \`request.url\` |\n`;
    const patches = patchesIn(
      "server/adapter/y.ts",
      'import type { IncomingMessage } from "node:http";\nexport const f = (request: IncomingMessage) => {\n  request.url = "/";\n  request.method = "GET";\n};\n',
    );
    const isFile = (file: string) => file === "server/adapter/y.ts";
    expect(
      unlistedPatches(patches, listedPatches(readme("| `y.ts` | sets `request.url` |\n"), isFile)),
    ).toEqual([{ file: "server/adapter/y.ts", line: 4, target: "request.method" }]);
    const both = readme("| `y.ts` | sets `request.url` and `request.method` |\n");
    expect(unlistedPatches(patches, listedPatches(both, isFile))).toEqual([]);
    // A row of another file, or one outside the patches' section, lists nothing.
    const elsewhere = readme("| `server/adapter/z.ts` | `request.url`, `request.method` |\n");
    expect(unlistedPatches(patches, listedPatches(elsewhere, isFile))).toHaveLength(2);
  });
});
