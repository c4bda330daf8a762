/**
 * The README's map names every top-level folder and every file at the top of server/, on this
 * tree; and on a tree of its own, a folder or a server file the map leaves out fails.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkReadmeMap, readMap } from "./readme-map";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the README's map", () => {
  it("names every top-level folder and every file at the top of server/, starting where a request does", () => {
    expect(checkReadmeMap(ROOT)).toEqual([]);
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const { top, server } = readMap(readme);
    // The boot of either tree, then the server.
    expect([...top].slice(0, 2)).toEqual([expect.stringMatching(/^\w+\.mjs$/), "server/"]);
    expect([...server].slice(0, 3)).toEqual(["boot.ts", "starting.ts", "pre-app/"]);
    // Under pre-app/, first, the file that holds the pre-app handlers' order.
    expect(readme).toMatch(/\n {2}pre-app\/ .*\n {4}handlers-in-order\.ts /);
    expect(existsSync(path.join(ROOT, "server/pre-app/handlers-in-order.ts"))).toBe(true);
  });
});

describe("the check, on a tree of its own", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const tree = (readme: string, files: string[]) => {
    root = mkdtempSync(path.join(os.tmpdir(), "readme-map-"));
    for (const file of ["README.md", ...files]) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), file === "README.md" ? readme : "\n");
    }
    return checkReadmeMap(root).map(({ file, line, message }) => `${file}:${line}: ${message}`);
  };
  const readme = (block: string, prose = "") =>
    `# x\n\n## What is where\n\n\`\`\`\n${block}\`\`\`\n${prose}\n## Next\n\n\`\`\`\nplanted/   not the map\n\`\`\`\n`;
  const files = [
    "server/boot.ts",
    "server/boot.test.ts",
    "server/adapter/x.ts",
    "app/root.tsx",
    ".github/ci.yml",
  ];

  it("passes a map that names them all, a folder in the section's prose included", () => {
    const block = "server/   the server\n  boot.ts   the boot\n  adapter/  x\napp/, .github/   the app; CI\n";
    expect(tree(readme(block), files)).toEqual([]);
    expect(tree(readme("server/  s\n  boot.ts  b\napp/  a\n", "\nAlso `.github/`.\n"), files)).toEqual([]);
  });

  it("fails on a planted folder and a planted server file the map leaves out", () => {
    const block = "server/   the server\n  boot.ts   the boot\napp/, .github/   the app; CI\n";
    expect(tree(readme(block), [...files, "planted/a.ts", "server/planted.ts"])).toEqual([
      'README.md:3: "What is where" does not name the top-level folder planted/',
      'README.md:3: "What is where" does not name server/planted.ts',
    ]);
  });

  it("takes a server file named under another folder for none", () => {
    const block = "server/   the server\napp/   the app\n  boot.ts   not the server's\n.github/  CI\n";
    expect(tree(readme(block), files)).toEqual(['README.md:3: "What is where" does not name server/boot.ts']);
  });
});
