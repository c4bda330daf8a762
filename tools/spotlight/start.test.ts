import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { narrowPage } from "./page.ts";
import { ensureInstalled, installed } from "./start.ts";

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

/** A stand-in for npm: a script run by Node in the folder npm would run in. */
function standIn(folder: string, script: string): string[] {
  const file = path.join(folder, "stand-in-npm.mjs");
  writeFileSync(file, script);
  return [process.execPath, file];
}

/** Alive, and not a zombie its adopter has yet to reap. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch (error) {
    return (error as NodeJS.ErrnoException).syscall === "open";
  }
}

describe("ensureInstalled", () => {
  const quiet = { say: () => {} };

  it("runs npm ci in the folder when it is not installed, and nothing when it is", async () => {
    const folder = folderWith({ a: "1.0.0" }, {});
    const command = standIn(
      folder,
      `import { writeFileSync } from "node:fs"; writeFileSync("npm-args.json", JSON.stringify(process.argv.slice(2)));`,
    );
    await ensureInstalled(folder, { ...quiet, command });
    expect(JSON.parse(readFileSync(path.join(folder, "npm-args.json"), "utf8"))).toEqual([
      "ci",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
    ]);
    const done = folderWith({ a: "1.0.0" }, { a: "1.0.0" });
    await ensureInstalled(done, { ...quiet, command: standIn(done, "process.exit(1);") });
  });

  it("kills npm and what it started at the time limit, and says so in one line", async () => {
    const folder = folderWith({ a: "1.0.0" }, {});
    // An npm that never ends, as one offline did, with a child of its own.
    const command = standIn(
      folder,
      `import { spawn } from "node:child_process"; import { writeFileSync } from "node:fs";
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      writeFileSync("npm-child.pid", String(child.pid));
      setInterval(() => {}, 1000);`,
    );
    const error = (await ensureInstalled(folder, { ...quiet, command, limitMs: 3_000 }).catch(
      (caught: unknown) => caught,
    )) as Error;
    expect(error.message).toMatch(
      /^Spotlight is not installed: npm ci in \S+ did not finish in 3 s\. It needs the npm registry .*, or start without --spotlight$/,
    );
    expect(error.message).not.toContain("\n");
    const child = Number(readFileSync(path.join(folder, "npm-child.pid"), "utf8"));
    try {
      await vi.waitFor(() => expect(running(child), `npm's child ${child}`).toBe(false), { timeout: 10_000 });
    } finally {
      if (running(child)) process.kill(child, "SIGKILL");
    }
  }, 30_000);

  it("names npm's exit and its error code in one line when it fails", async () => {
    const folder = folderWith({ a: "1.0.0" }, {});
    const command = standIn(
      folder,
      `console.error("npm error code ENOTFOUND\\nnpm error network request failed"); process.exit(1);`,
    );
    const error = (await ensureInstalled(folder, { ...quiet, command }).catch(
      (caught: unknown) => caught,
    )) as Error;
    expect(error.message).toMatch(
      /^Spotlight is not installed: npm ci in \S+ failed \(exit 1, ENOTFOUND\)\. /,
    );
    expect(error.message).not.toContain("\n");
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
