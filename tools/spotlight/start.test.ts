import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { narrowPage } from "./page.ts";
import { installed } from "./start.ts";

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A folder with a lock of `locked` packages and node_modules holding `present`. */
function folderWith(locked: Record<string, string>, present: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), "spotlight-installed-"));
  folders.push(folder);
  const packages = Object.fromEntries(
    Object.entries(locked).map(([name, version]) => [`node_modules/${name}`, { version }]),
  );
  const lock = {
    lockfileVersion: 3,
    packages: { "": {}, ...packages, "node_modules/a/node_modules/b": { version: "9.9.9" } },
  };
  writeFileSync(path.join(folder, "package-lock.json"), JSON.stringify(lock));
  for (const [name, version] of Object.entries(present)) {
    mkdirSync(path.join(folder, "node_modules", name), { recursive: true });
    writeFileSync(path.join(folder, "node_modules", name, "package.json"), JSON.stringify({ version }));
  }
  return folder;
}

describe("installed", () => {
  it("is true when every package the lock pins at the top is there at its version", () => {
    expect(installed(folderWith({ a: "1.0.0", hono: "4.12.25" }, { a: "1.0.0", hono: "4.12.25" }))).toBe(
      true,
    );
  });

  it("is false before the first install, and when a version differs from the lock (a new pin)", () => {
    expect(installed(folderWith({ a: "1.0.0", hono: "4.12.25" }, {}))).toBe(false);
    expect(installed(folderWith({ a: "1.0.0", hono: "4.12.25" }, { a: "1.0.0", hono: "4.13.19" }))).toBe(
      false,
    );
  });
});

describe("narrowPage", () => {
  const page = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; connect-src 'self' http://localhost:* ws://localhost:* https://*.sentry.io; img-src 'self'" />`;

  it("lets Spotlight's page connect to itself and this machine's sidecar, not to Sentry's service", () => {
    const narrowed = narrowPage(page);
    expect(narrowed).toContain("connect-src 'self' http://localhost:*; img-src 'self'");
    expect(narrowed).not.toContain("sentry.io");
  });

  it("refuses a page it cannot narrow, so a changed page is looked at", () => {
    expect(() => narrowPage("<html></html>")).toThrow(/no connect-src to narrow/);
  });
});
