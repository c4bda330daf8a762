/**
 * A server that is not Node (Postgres, Redis) started by a test: its own
 * process group, killed with the group when the test process dies without
 * stopping it (process-group-watchdog.ts), and its temporary folder removed on stop.
 */
import { execFileSync, spawn } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { onFreePort } from "./free-port";
import { watchdog } from "./process-group-watchdog";
import { countServerStart } from "./server-starts";

export interface OwnedServer {
  port: number;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The user a server runs as: this one, or when it is root (CI) an unprivileged
 * one, since Postgres refuses to run as root.
 */
export function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const id = (flag: string) => Number(execFileSync("id", [flag, name], { encoding: "utf8" }).trim());
      return { uid: id("-u"), gid: id("-g") };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error("running as root, and neither a postgres nor a nobody user exists to run the server as");
}

/** A temporary folder the server's user owns; under /tmp when root, as TMPDIR may be closed to others. */
export function ownedFolder(prefix: string): string {
  const user = serverUser();
  const dir = mkdtempSync(path.join(user ? "/tmp" : tmpdir(), prefix));
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Runs a one-off command (initdb) as the server's user; throws with its output when it fails. */
export function runAsServerUser(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { ...serverUser(), stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${path.basename(command)} failed:\n${stdout ?? ""}${stderr ?? ""}`, { cause: error });
  }
}

const START_LIMIT_MS = 60_000;

interface OwnedServerOptions {
  command: string;
  /** Its arguments, listening on `port` of 127.0.0.1. */
  args: (port: number) => string[];
  /** Removed on stop. */
  folder: string;
  /** True once the output says it accepts connections. */
  ready: (output: string) => boolean;
  /** Postgres shuts down fast on SIGINT; Redis on SIGTERM. */
  stopSignal: NodeJS.Signals;
}

/** Postgres's and Redis's words for a port bound by someone else between the probe and the bind. */
const PORT_TAKEN = "Address already in use";

export async function startOwnedServer(options: OwnedServerOptions): Promise<OwnedServer> {
  countServerStart();
  try {
    return await onFreePort(
      (port) => startOn(options, port),
      (error) => String(error).includes(PORT_TAKEN),
    );
  } catch (error) {
    rmSync(options.folder, { recursive: true, force: true });
    throw error;
  }
}

async function startOn(options: OwnedServerOptions, port: number): Promise<OwnedServer> {
  const child = spawn(options.command, options.args(port), {
    ...serverUser(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const guard = watchdog(child.pid!, options.folder);
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = async () => {
    try {
      process.kill(-child.pid!, options.stopSignal);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
    guard.kill("SIGKILL");
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not ready within ${START_LIMIT_MS} ms`)),
        START_LIMIT_MS,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (!options.ready(output)) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error("exited before it was ready"));
      });
    });
  } catch (error) {
    // The folder stays for another port's try (Postgres's data is in it).
    await kill();
    throw new Error(`${path.basename(options.command)}: ${(error as Error).message}. Output:\n${output}`);
  }
  const stop = async () => {
    await kill();
    rmSync(options.folder, { recursive: true, force: true });
  };
  return { port, output: () => output, stop };
}
