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

  it("copies and applies no package patch", () => {
    expect(upgraded).not.toMatch(/patches|patch-package/);
  });

  it("refuses a Dockerfile whose lines it does not find", () => {
    expect(() => upgradeDockerfile("FROM node:24\n")).toThrow(/expected the line/);
  });
});

describe("upgradeDockerignore, on this project's .dockerignore after the source rewrite", () => {
  const upgraded = upgradeDockerignore(rewriteSource(".dockerignore", read(".dockerignore")));

  it("lets the app's server entry into the build context instead of the preload, and no patch", () => {
    expect(upgraded.split("\n")).toContain("!server.mjs");
    expect(upgraded).not.toMatch(/boot\.mjs|patches/);
  });
});
