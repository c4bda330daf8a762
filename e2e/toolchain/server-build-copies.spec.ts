/**
 * The boot (`boot.js`) and the server build (`index.js`) share one copy of each
 * module both import (docs/decisions/0073-one-copy-of-the-boot-s-modules.md):
 * the request scope, the SDK handle and the route table are plain module state,
 * which a second copy would split (e2e/operations/operations.spec.ts sees that as an error line
 * without its request id; under `npm run dev`, e2e/toolchain/dev-server.spec.ts). Read from
 * the server build's source maps: each source file is in one output file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "../support/spec-helpers";

const root = path.resolve(import.meta.dirname, "../..");
const server = path.join(root, "build-e2e/server");

test("no module of the app or the server is bundled into two files of the server build", () => {
  const outputs = readdirSync(server, { recursive: true, encoding: "utf8" }).filter((file) =>
    file.endsWith(".js"),
  );
  expect(outputs).toEqual(expect.arrayContaining(["boot.js", "index.js"]));
  const filesOf = new Map<string, string[]>();
  for (const output of outputs) {
    const map = path.join(server, `${output}.map`);
    const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
    for (const source of sources) {
      const file = path.relative(root, path.resolve(path.dirname(map), source));
      if (!/^(app|server)\//.test(file)) continue;
      filesOf.set(file, [...(filesOf.get(file) ?? []), output]);
    }
  }
  expect(filesOf.get("app/request-scope.server.ts")).toHaveLength(1);
  expect([...filesOf].filter(([, files]) => files.length > 1)).toEqual([]);
});
