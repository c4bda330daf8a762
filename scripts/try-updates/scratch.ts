/**
 * The scratch copies the weekly try of updates (run.ts) works in, and the commands it runs
 * there: each in its own process group, its output kept in the group's log,
 * and nothing left behind when the run is interrupted.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import semver from "semver";

const ROOT = path.resolve(import.meta.dirname, "../..");

export const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;
/** A package's installed version in the tree at `dir`. */
export const installedIn = (dir: string) => (name: string) =>
  readJson<{ version: string }>(path.join(dir, "node_modules", name, "package.json")).version;

/** The process group running now and the scratch copy, for an interrupted run to clean up. */
let running: number | undefined;
let scratch: string | undefined;
/** On Ctrl-C, SIGTERM or SIGHUP: the running command's group stopped, the scratch copy removed. */
export function cleanUpOnSignals(): void {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
    process.once(signal, () => {
      if (running) process.kill(-running, "SIGKILL");
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      process.exit(1);
    });
}

/** Runs a command in `cwd`, its output appended to `log`; the exit code, or "timeout". */
export function run(command: string, args: string[], cwd: string, log: string, timeoutMs?: number) {
  return new Promise<number | "timeout">((resolve) => {
    const out = createWriteStream(log, { flags: "a" });
    out.write(`\n$ ${command} ${args.join(" ")}\n`);
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running = child.pid;
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          process.kill(-child.pid!, "SIGKILL");
        }, timeoutMs)
      : undefined;
    child.on("close", (code) => {
      running = undefined;
      clearTimeout(timer);
      out.end(() => resolve(timedOut ? "timeout" : (code ?? 1)));
    });
  });
}

/** The tree as git sees it (tracked and new files, not what .gitignore leaves out), in a new folder. */
export function scratchCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "try-updates-"));
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter(Boolean))
    cpSync(path.join(ROOT, file), path.join(dir, file), { force: true });
  return (scratch = dir);
}

export function removeScratch(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  scratch = undefined;
}

type Manifest = Record<"dependencies" | "devDependencies", Record<string, string> | undefined>;

/**
 * `npm install name@latest` saves `^version`; Dependabot keeps a pin exact. The packages
 * package.json pins exactly are pinned again at what was installed: the names re-pinned.
 */
export function keepExactPins(dir: string, names: string[], root = ROOT): string[] {
  const original = readJson<Manifest>(path.join(root, "package.json"));
  const file = path.join(dir, "package.json");
  const updated = readJson<Manifest>(file);
  const pinned: string[] = [];
  for (const field of ["dependencies", "devDependencies"] as const)
    for (const name of names)
      if (semver.valid(original[field]?.[name] ?? "") && updated[field]?.[name]) {
        updated[field]![name] = installedIn(dir)(name);
        pinned.push(name);
      }
  writeFileSync(file, `${JSON.stringify(updated, null, 2)}\n`);
  return pinned;
}
