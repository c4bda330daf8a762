/**
 * The Docker CLI for the deploy checks: every call bounded in time, every
 * child process killed with its process group when the test process ends, and
 * every container labelled so that the global teardown can remove what a
 * crashed test left behind.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";

/** Label on every container (and image build) the checks start. */
export const TEST_LABEL = "scaffold-test=1";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CommandOptions {
  /** Kill the command (its whole process group) after this long. */
  timeoutMs: number;
  /** Written to the command's standard input, or a stream piped into it. */
  input?: string | NodeJS.ReadableStream;
  env?: NodeJS.ProcessEnv;
  /** Echo the command's output as it comes (long builds). */
  echo?: boolean;
  cwd?: string;
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) killGroup(child);
});

function killGroup(child: ChildProcess) {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Runs `command args…`; resolves with its exit code and output, never rejects but on time-out. */
export function run(command: string, args: string[], options: CommandOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      detached: true,
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    live.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk;
      if (options.echo) process.stdout.write(chunk);
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk;
      if (options.echo) process.stderr.write(chunk);
    });
    if (typeof options.input === "string") child.stdin!.end(options.input);
    else if (options.input) options.input.pipe(child.stdin!);
    else child.stdin!.end();
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`${command} ${args.join(" ")}: no end after ${options.timeoutMs} ms\n${stderr}`));
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      live.delete(child);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** `docker args…`, throwing with its error output when it fails. */
export async function docker(args: string[], options: Partial<CommandOptions> = {}): Promise<string> {
  const result = await run("docker", args, { timeoutMs: 120_000, ...options });
  if (result.code !== 0) {
    throw new Error(`docker ${args.join(" ")} exited ${result.code}:\n${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

/** Why Docker cannot be used here, or undefined when the engine answers. */
export function dockerUnavailable(): string | undefined {
  const info = spawnSync("docker", ["info"], { encoding: "utf8", timeout: 30_000 });
  if (info.error) return `no docker command (${(info.error as NodeJS.ErrnoException).code})`;
  if (info.status !== 0) {
    const lines = (info.stderr + "\n" + info.stdout).split("\n").map((line) => line.trim());
    const reason =
      lines.find((line) => /cannot connect|permission denied/i.test(line)) ??
      lines.find(Boolean) ??
      `docker info exited ${info.status}`;
    return `the Docker engine does not answer (${reason.trim()})`;
  }
  return undefined;
}

/**
 * A `docker build` that uses BuildKit (the Dockerfile's RUN --mount needs it).
 * Docker CLIs from 23 on build with BuildKit only through the buildx plugin;
 * the 20.10 CLI (Debian's docker.io) has a BuildKit client of its own. This
 * machine may have a newer CLI without buildx on the PATH and docker.io's in
 * /usr/bin, so each client is asked in turn.
 */
export async function buildKitBuilder(): Promise<{ command: string; env: NodeJS.ProcessEnv }> {
  const env = { ...process.env, DOCKER_BUILDKIT: "1" };
  const buildx = await run("docker", ["buildx", "version"], { timeoutMs: 30_000 }).catch(() => undefined);
  if (buildx?.code === 0) return { command: "docker", env };
  const candidates = [
    ...new Set(
      [...(process.env.PATH ?? "").split(":").map((dir) => `${dir}/docker`), "/usr/bin/docker"].filter(
        Boolean,
      ),
    ),
  ];
  for (const command of candidates) {
    const version = await run(command, ["version", "--format", "{{.Client.Version}}"], {
      timeoutMs: 30_000,
    }).catch(() => undefined);
    const major = Number(/^(\d+)\./.exec(version?.stdout.trim() ?? "")?.[1]);
    if (major >= 18 && major < 23) return { command, env };
  }
  throw new Error(
    "No Docker client here builds with BuildKit: install the buildx plugin, or Debian's docker.io (20.10), whose CLI has BuildKit built in.",
  );
}

/** Removes every container the checks labelled, running or not. */
export async function removeTestContainers(): Promise<number> {
  const ids = (await docker(["ps", "-aq", "--filter", `label=${TEST_LABEL}`])).split("\n").filter(Boolean);
  if (ids.length > 0) await docker(["rm", "-f", ...ids]);
  return ids.length;
}
