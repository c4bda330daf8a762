import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keepExactPins } from "./scratch";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});
function tree(manifest: object, installed: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "try-updates-test-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest));
  for (const [name, version] of Object.entries(installed)) {
    mkdirSync(path.join(dir, "node_modules", name), { recursive: true });
    writeFileSync(path.join(dir, "node_modules", name, "package.json"), JSON.stringify({ name, version }));
  }
  return dir;
}

describe("keepExactPins: what npm install saved as a range, pinned again as the tree pinned it", () => {
  it("pins exactly what was pinned exactly, at the installed version, and leaves ranges as npm saved them", () => {
    const root = tree({ dependencies: { "@sentry/node": "11.12.0" }, devDependencies: { vite: "^6.4.0" } });
    const scratch = tree(
      { dependencies: { "@sentry/node": "^11.13.1" }, devDependencies: { vite: "^6.4.7" } },
      { "@sentry/node": "11.13.1", vite: "6.4.7" },
    );
    expect(keepExactPins(scratch, ["@sentry/node", "vite"], root)).toEqual(["@sentry/node"]);
    expect(JSON.parse(readFileSync(path.join(scratch, "package.json"), "utf8"))).toEqual({
      dependencies: { "@sentry/node": "11.13.1" },
      devDependencies: { vite: "^6.4.7" },
    });
  });
});
