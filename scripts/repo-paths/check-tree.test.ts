/**
 * The checker on a small tree of its own: a planted broken reference of each
 * kind fails, and each rule that lets a name through holds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkTree, UPGRADE_OVERLAY } from "./check-tree";

let root: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};
const found = () => checkTree(root).map(({ file, line, message }) => `${file}:${line}: ${message}`);

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "check-repo-paths-"));
  write("package.json", JSON.stringify({ scripts: { test: "x" }, dependencies: {} }));
  write("boot.mjs", "\n");
  write("server/boot.ts", "// Started by boot.mjs (server/boot.ts itself). npm run test\n");
  write("docs/decisions/0058-two-sentry-majors.md", "# 0058 x\n");
  write("docs/page.md", "`server/boot.ts`, docs/decisions/0058, `npm run test`, `build/server/index.js`\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("check-repo-paths", () => {
  it("passes a tree that names only what it has", () => {
    write("docs/ok.md", "`docs/decisions/0058` and `node_modules/x/y.js` and `/app/server/x.ts`\n");
    expect(found()).toEqual([]);
  });

  it("fails on a gone path in Markdown code, a comment of each kind, and an unknown npm script", () => {
    write(
      "docs/stale.md",
      "# Stale\n\nThe handler (`server/remix-handler.ts`).\n\nThen npm run lint:nope.\n",
    );
    write("server/x.ts", "export const x = 1;\n/* wraps it (server/adapter/gone.ts) */\n");
    write(".ci/run", "#!/bin/bash\n# see docs/decisions/0099\n");
    expect(found().sort()).toEqual([
      ".ci/run:2: names docs/decisions/0099, which does not exist",
      "docs/stale.md:3: names server/remix-handler.ts, which does not exist",
      "docs/stale.md:5: names npm run lint:nope, which package.json does not have",
      "server/x.ts:2: names server/adapter/gone.ts, which does not exist",
    ]);
  });

  it("lets a walk-through name the files it creates, and nothing else", () => {
    const page =
      "<!-- check-repo-paths: creates app/routes/contact/ -->\n`app/routes/contact/route.tsx` `app/x.ts`\n";
    write("app/root.tsx", "\n");
    write("docs/adding.md", page);
    expect(found()).toEqual(["docs/adding.md:2: names app/x.ts, which does not exist"]);
  });

  it("resolves what the upgrade's own files name in the upgraded tree: theirs first, then the tree's", () => {
    write(`${UPGRADE_OVERLAY}react-router.config.ts`, "// beside server/boot.ts\n");
    write(
      `${UPGRADE_OVERLAY}server/x.ts`,
      "// read by react-router.config.ts and server/x.ts; not server/y.ts\n",
    );
    expect(found()).toEqual([`${UPGRADE_OVERLAY}server/x.ts:1: names server/y.ts, which does not exist`]);
    write("docs/upgrade.md", "`server/x.ts`\n");
    expect(found()).toContain("docs/upgrade.md:1: names server/x.ts, which does not exist");
  });

  it("checks an upgraded tree as it checks this one: its pages describe it", () => {
    write("docs/stale.md", "`server/remix-handler.ts`\n");
    write("package.json", JSON.stringify({ scripts: {}, dependencies: { "react-router": "8" } }));
    expect(found()).toContain("docs/stale.md:1: names server/remix-handler.ts, which does not exist");
  });

  it("on a tree day one's init trimmed, fails on a path under a top-level folder it removed", () => {
    write("app/routes/_index.tsx", "// built by the baseline (bench/baseline) too\n");
    write("tsconfig.ts", "// as scaffold:bench/baseline and scaffold:.ci/run did\n");
    write("docs/ci.md", "`.ci/run`\n");
    expect(found().sort()).toEqual([
      "app/routes/_index.tsx:1: names bench/baseline, which does not exist",
      "docs/ci.md:1: names .ci/run, which does not exist",
    ]);
  });

  it("fails on a source file named by itself that no file of the tree is, outside history", () => {
    rmSync(path.join(root, "boot.mjs"));
    write("docs/security.md", "Source maps (`boot.mjs`); a package's `cli.js`; `orders.$id.tsx`\n");
    write("docs/decisions/0058-two-sentry-majors.md", "# 0058 x\n\n`boot.mjs` went.\n");
    expect(found().sort()).toEqual([
      "docs/security.md:1: names boot.mjs, which no file of the tree is",
      "server/boot.ts:1: names boot.mjs, which no file of the tree is",
    ]);
  });

  it("lets a page of history name what the upgrade removed, as it declares, and nothing else", () => {
    write(
      "docs/decisions/0061-x.md",
      "`scripts/upgrade-react-router/run.ts`, `npm run upgrade:react-router`, `server/adapter/gone.ts`\n" +
        "<!-- check-repo-paths: removed by the upgrade: scripts/upgrade-react-router upgrade:react-router -->\n",
    );
    expect(found()).toEqual([
      "docs/decisions/0061-x.md:1: names server/adapter/gone.ts, which does not exist",
    ]);
  });

  it("lets a page of history name a file the upgrade puts in place, and no other page", () => {
    write(`${UPGRADE_OVERLAY}server/app-server.ts`, "\n");
    write("docs/decisions/0067-x.md", "`server/app-server.ts`, `server/gone.ts`\n");
    write("docs/page.md", "`server/app-server.ts`\n");
    expect(found().sort()).toEqual([
      "docs/decisions/0067-x.md:1: names server/gone.ts, which does not exist",
      "docs/page.md:1: names server/app-server.ts, which does not exist",
    ]);
  });

  it("lets a page of history name what init removed with the upgrade, as it declares", () => {
    write(
      "docs/decisions/0067-x.md",
      "`server/app-server.ts`, `server/gone.ts`\n" +
        "<!-- check-repo-paths: removed with the upgrade: server/app-server.ts -->\n",
    );
    expect(found()).toEqual(["docs/decisions/0067-x.md:1: names server/gone.ts, which does not exist"]);
  });
});
