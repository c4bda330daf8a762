/**
 * Runs a command to its end without blocking the test worker. `spawnSync` would stop the worker's
 * event loop while the command runs: Playwright's time-out could not fire, and a server the test
 * runs in the same process (the Sentry recorder, a port held for a refusal) could not answer the
 * command, so the command would wait for its own time-out instead.
 */
import { spawn } from "node:child_process";

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
  /** Killed (SIGKILL) after this long; its result then has `signal`. */
  timeoutMs?: number;
}

export function runToExit(command: string, args: string[], options: RunOptions = {}): Promise<ExitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // A worker that ends (a failed test's worker is replaced) takes the command with it.
    const killChild = () => child.kill("SIGKILL");
    process.once("exit", killChild);
    const timer = setTimeout(killChild, options.timeoutMs ?? 60_000);
    const done = () => {
      clearTimeout(timer);
      process.off("exit", killChild);
    };
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
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
