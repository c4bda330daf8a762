/**
 * Installs Spotlight here on first use, from this folder's own lock, and starts its sidecar
 * (sidecar.ts) as a child process that ends with the one that started it. Only erasable TypeScript.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SidecarMessage } from "./protocol.ts";

const HERE = import.meta.dirname;

export interface Sidecar {
  address: string;
  port: number;
  /** What it wrote so far, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** Each package the lock pins at the top of node_modules, at that version: the pin included. */
export function installed(folder = HERE): boolean {
  const lock = JSON.parse(readFileSync(path.join(folder, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string; optional?: boolean }>;
  };
  return Object.entries(lock.packages).every(([where, { version, optional }]) => {
    if (where === "" || optional || where.split("node_modules/").length > 2) return true;
    const manifest = path.join(folder, where, "package.json");
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === version;
  });
}

/** Spotlight's 142 packages: seconds with npm's cache, a minute or two without; offline, npm can wait for ever. */
export const INSTALL_LIMIT_MS = 300_000;

export interface NpmOptions {
  /** The npm to run, and its first arguments: `npm run` names its own; a test or a shell may name none. */
  command?: string[];
  limitMs?: number;
}

/**
 * npm with `args` in `folder`, in a process group of its own, which dies at `limitMs`, or with this
 * process (its exit, or a signal it is sent). Rejects with one line: what failed, and npm's error code.
 */
function npm(folder: string, args: string[], { command, limitMs = INSTALL_LIMIT_MS }: NpmOptions = {}) {
  const cli = process.env.npm_execpath;
  const [program, ...first] = command ?? (cli ? [process.execPath, cli] : ["npm"]);
  const what = `npm ${args.join(" ")} in ${path.relative(process.cwd(), folder) || "."}`;
  const child = spawn(program!, [...first, ...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: folder,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += chunk));
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  // Its own group: a Ctrl-C on the terminal no longer reaches it, so it is passed on.
  const onSignal = (signal: NodeJS.Signals) => {
    killGroup();
    process.kill(process.pid, signal);
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const signal of signals) process.once(signal, onSignal);
  process.once("exit", killGroup);
  return new Promise<void>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, limitMs);
    const settle = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      clearTimeout(timer);
      for (const name of signals) process.off(name, onSignal);
      process.off("exit", killGroup);
      const npmError = /^npm error code (\S+)/m.exec(output)?.[1];
      if (timedOut) reject(new Error(`${what} did not finish in ${Math.round(limitMs / 1000)} s`));
      else if (error) reject(new Error(`${what} did not start (${error.message})`));
      else if (code !== 0)
        reject(new Error(`${what} failed (exit ${code ?? signal}${npmError ? `, ${npmError}` : ""})`));
      else resolve();
    };
    child.once("error", (error) => settle(null, null, error));
    // Killed, its group may still hold the pipes open: its own exit is the end.
    child.once("exit", (code, signal) => timedOut && settle(code, signal));
    child.once("close", (code, signal) => settle(code, signal));
  });
}

/**
 * `npm ci` here when node_modules and the lock differ, as a step of the caller's, within
 * `limitMs`. Rejects with one line: what failed, and what to do.
 */
export async function ensureInstalled(
  folder = HERE,
  {
    say = (line: string) => console.error(line),
    ...options
  }: NpmOptions & { say?: (line: string) => void } = {},
): Promise<void> {
  if (installed(folder)) return;
  const where = path.relative(process.cwd(), folder) || ".";
  say(`Spotlight: installing ${where} from its lock (once: npm ci)`);
  try {
    await npm(folder, ["ci"], options);
  } catch (error) {
    throw new Error(
      `Spotlight is not installed: ${(error as Error).message}. It needs the npm registry (or npm's cache) once: run npm ci in ${where} to see npm's output, or start without --spotlight`,
    );
  }
}

/** The sidecar on `port` (0: any free one), serving files relative to `cwd`; what it writes goes on to our stderr. */
export function startSidecar({
  port,
  cwd = process.cwd(),
  folder = HERE,
  env = process.env,
}: {
  port: number;
  cwd?: string;
  folder?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<Sidecar> {
  const child = spawn(process.execPath, [path.join(folder, "sidecar.ts"), "--port", String(port)], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      process.stderr.write(chunk);
    });
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  process.once("exit", () => child.kill("SIGKILL"));
  return new Promise((resolve, reject) => {
    child.once("message", (message: SidecarMessage) => {
      if ("failed" in message) reject(new Error(`Spotlight: ${message.failed}`));
      else resolve({ ...message.listening, output: () => output, stop });
    });
    child.once("exit", (code, signal) => reject(new Error(`Spotlight's sidecar exited (${code ?? signal})`)));
  });
}
