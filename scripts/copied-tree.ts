/**
 * The steps of the tests that prove a fresh copy of the tree (scripts/test-init.ts, and the
 * upgrade's own while the upgrade is here): copy the working tree to a directory outside the
 * project, run commands there, and stop the running one, with everything it started, on
 * Ctrl-C or SIGTERM.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

export interface CopiedTree {
  say(line: string): void;
  run(command: string, args: string[], env?: Record<string, string>): Promise<void>;
  /** The working tree's files as git sees them (tracked and new, never ignored) copied to the tree; their count. */
  copy(): number;
}

/** `label` prefixes every line; `variable` names the environment variable `tree` came from. */
export function copiedTree(label: string, tree: string, variable: string): CopiedTree {
  const started = Date.now();
  let current: ChildProcess | undefined;
  const say = (line: string) =>
    console.log(`${label}: [${Math.round((Date.now() - started) / 1000)}s] ${line}`);

  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      const child = current;
      if (child?.pid) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // Already gone.
        }
        child.once("exit", () => process.exit(128 + os.constants.signals[signal]));
      } else process.exit(128 + os.constants.signals[signal]);
    });
  }

  const run = (command: string, args: string[], env: Record<string, string> = {}) => {
    say(`${command} ${args.join(" ")}`);
    return new Promise<void>((resolve, reject) => {
      // Its own process group, so that a signal reaches everything it started.
      const child = spawn(command, args, {
        cwd: tree,
        env: { ...process.env, ...env },
        stdio: ["ignore", "inherit", "inherit"],
        detached: true,
      });
      current = child;
      child.once("exit", (code, signal) => {
        current = undefined;
        if (code === 0) resolve();
        else reject(new Error(`${command} ${args.join(" ")} failed (${code ?? signal})`));
      });
    });
  };

  const copy = () => {
    const relative = path.relative(ROOT, tree);
    if (relative === "" || !relative.startsWith(".."))
      throw new Error(`${variable} must be outside the project (${tree})`);
    rmSync(tree, { recursive: true, force: true });
    mkdirSync(tree, { recursive: true });
    const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\0")
      .filter((file) => file && existsSync(path.join(ROOT, file)));
    for (const file of files) cpSync(path.join(ROOT, file), path.join(tree, file), { force: true });
    return files.length;
  };

  return { say, run, copy };
}

/** Runs `main`; on a failure, one line with the label and exit code 1. */
export function runMain(label: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
