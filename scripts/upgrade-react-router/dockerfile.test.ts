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

  it("copies no patch and applies none: nothing is patched on React Router 8", () => {
    expect(upgraded).not.toMatch(/patches|patch-package/);
    // The production stage still installs without running any install script.
    expect(upgraded).toMatch(/npm ci --omit=dev [^\n]*--ignore-scripts[^\n]*\\\n\s+&& find /);
    expect(upgraded).toContain("React Router's compiler");
    expect(upgraded).not.toMatch(/0030|0068|Remix's compiler/);
  });

  it("refuses a Dockerfile whose lines it does not find", () => {
    expect(() => upgradeDockerfile("FROM node:24\n")).toThrow(/expected the line/);
  });
});

describe("upgradeDockerignore, on this project's .dockerignore after the source rewrite", () => {
  const upgraded = upgradeDockerignore(rewriteSource(".dockerignore", read(".dockerignore")));

  it("lets the app's server entry into the build context instead of the preload, and no patches", () => {
    expect(upgraded.split("\n")).toContain("!server.mjs");
    expect(upgraded).not.toMatch(/boot\.mjs|patches/);
  });
});
