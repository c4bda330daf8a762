/**
 * Installs Spotlight here on first use, from this folder's own lock, and starts its sidecar
 * (sidecar.ts) as a child process that ends with the one that started it. Only erasable TypeScript.
 */
import { spawn, spawnSync } from "node:child_process";
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

/** npm with `args` in `folder`, its output on our stderr; throws when it fails. */
export function npm(folder: string, args: string[]): void {
  // `npm run` names the npm that runs it; a test or a shell may not.
  const cli = process.env.npm_execpath;
  const [command, first] = cli ? [process.execPath, [cli]] : ["npm", []];
  const result = spawnSync(command, [...first, ...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: folder,
    stdio: ["ignore", 2, 2],
  });
  if (result.status !== 0) {
    throw new Error(`npm ${args.join(" ")} in ${folder} failed (exit ${result.status ?? result.signal})`);
  }
}

/** `npm ci` here when node_modules and the lock differ, as a step of the caller's. */
export function ensureInstalled(folder = HERE, say = (line: string) => console.error(line)): void {
  if (installed(folder)) return;
  say(`Spotlight: installing ${path.relative(process.cwd(), folder) || "."} from its lock (once: npm ci)`);
  npm(folder, ["ci"]);
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
