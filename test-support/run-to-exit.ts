/**
 * Runs a command to its end without blocking the test process: the e2e specs' refused starts and
 * the deploy checks' Docker and npm commands. `spawnSync` would stop the event loop while the
 * command runs: Playwright's time-out could not fire, and a server the test runs in the same
 * process (the Sentry recorder, a port held for a refusal) could not answer the command, so the
 * command would wait for its own time-out instead.
 */
import { spawn, type ChildProcess } from "node:child_process";

export interface ExitResult {
  /** The exit code; null when a signal ended it (`signal`). */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Killed (SIGKILL) after this long, and the promise rejects with the output so far. */
  timeoutMs?: number;
  /**
   * Runs it in a process group of its own, killed whole: for a command that starts others (npm, a
   * Docker build), whose children a kill of the command alone would leave running. Such a group
   * does not get the terminal's Ctrl-C, hence not the default.
   */
  group?: boolean;
}

/** The commands running, each with whether it has a group of its own. */
const live = new Map<ChildProcess, boolean>();
// A worker that ends (a failed test's worker is replaced) takes its commands with it.
process.once("exit", () => {
  for (const child of live.keys()) kill(child);
});

function kill(child: ChildProcess) {
  try {
    if (child.pid) process.kill(live.get(child) ? -child.pid : child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export function runToExit(command: string, args: string[], options: RunOptions = {}): Promise<ExitResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: options.group,
      stdio: ["ignore", "pipe", "pipe"],
    });
    live.set(child, options.group ?? false);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      kill(child);
      reject(new Error(`${command} ${args.join(" ")}: no end after ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      live.delete(child);
    };
    child.once("error", (error) => {
      done();
      reject(error);
    });
    child.once("close", (status, signal) => {
      done();
      resolve({ status, signal, stdout, stderr });
    });
  });
}
