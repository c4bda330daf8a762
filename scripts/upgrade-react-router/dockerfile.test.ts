import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { upgradeDockerfile, upgradeDockerignore } from "./dockerfile";
import { rewriteSource } from "./source-rewrite";

const read = (file: string) => readFileSync(path.resolve(import.meta.dirname, "../..", file), "utf8");
const dockerfile = read("Dockerfile");

describe("upgradeDockerfile, on this project's Dockerfile after the source rewrite", () => {
  const upgraded = upgradeDockerfile(rewriteSource("Dockerfile", dockerfile));

  it("runs the app's own server as process 1, without the preload or the framework's CLI", () => {
    expect(upgraded).toContain('CMD ["node", "server.mjs", "build/server/index.js"]');
    expect(upgraded).toContain("COPY package.json server.mjs ./");
    expect(upgraded).not.toMatch(/boot\.mjs|react-router-serve|@react-router\/serve/);
  });

  it("copies the patches into both install stages and applies them, as the Remix image does (react-router's now)", () => {
    expect(upgraded.match(/^COPY patches\/\*\.patch \.\/patches\/$/gm)).toHaveLength(2);
    // The production stage installs without scripts: the patch is applied explicitly, and its failure fails the build.
    expect(upgraded).toMatch(
      /npm ci --omit=dev [^\n]*--ignore-scripts[^\n]*\\\n\s+&& npx --no-install patch-package --error-on-fail/,
    );
    expect(upgraded).toContain("docs/decisions/0068-react-router-8-route-matching-index.md");
    expect(upgraded).not.toContain("0030");
  });

  it("refuses a Dockerfile whose lines it does not find", () => {
    expect(() => upgradeDockerfile("FROM node:24\n")).toThrow(/expected the line/);
  });
});

describe("upgradeDockerignore, on this project's .dockerignore after the source rewrite", () => {
  const upgraded = upgradeDockerignore(rewriteSource(".dockerignore", read(".dockerignore")));

  it("lets the app's server entry into the build context instead of the preload, and the patches", () => {
    expect(upgraded.split("\n")).toEqual(expect.arrayContaining(["!server.mjs", "!patches/*.patch"]));
    expect(upgraded).not.toMatch(/boot\.mjs/);
  });
});
