/**
 * The Docker CLI for the deploy checks (`docker`, or the one DOCKER names):
 * every call bounded in time and killed with its process group when the test
 * process ends (test-support/run-to-exit.ts), and every container labelled so
 * that the global teardown can remove what a crashed test left behind.
 */
import { spawnSync } from "node:child_process";
import { runToExit, type RunOptions } from "../../../test-support/run-to-exit";

/** Label on every container (and image build) the checks start. */
export const TEST_LABEL = "scaffold-test=1";

/** The Docker CLI the checks run: DOCKER (a name on PATH or a path) when set, else `docker`. */
export function dockerCommand(): string {
  return process.env.DOCKER?.trim() || "docker";
}

/** `docker args…` to its end, in a process group of its own: its exit code and output. */
export function runDocker(args: string[], options: RunOptions = {}) {
  return runToExit(dockerCommand(), args, { timeoutMs: 120_000, group: true, ...options });
}

/** `docker args…`, throwing with its error output when it fails. */
export async function docker(args: string[], options: RunOptions = {}): Promise<string> {
  const result = await runDocker(args, options);
  if (result.status !== 0) {
    throw new Error(`docker ${args.join(" ")} exited ${result.status}:\n${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

/** Why Docker cannot be used here, or undefined when the engine answers. */
export function dockerUnavailable(): string | undefined {
  const command = dockerCommand();
  const info = spawnSync(command, ["info"], { encoding: "utf8", timeout: 30_000 });
  if (info.error) return `no docker command ${command} (${(info.error as NodeJS.ErrnoException).code})`;
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

export interface Builder {
  /** The command and the arguments before the build's own: `docker buildx build --load`, or `docker build`. */
  command: string;
  build: string[];
  env: NodeJS.ProcessEnv;
  /** How it is called, for messages. */
  description: string;
}

/**
 * A build with BuildKit (the Dockerfile's RUN --mount needs it): `docker buildx
 * build` when the CLI has the buildx plugin, else `DOCKER_BUILDKIT=1 docker
 * build`, with which a CLI older than 23 (Debian 12's docker.io 20.10, say)
 * uses a BuildKit client of its own. A CLI from 23 on without buildx cannot
 * build with BuildKit at all: then DOCKER must name another CLI.
 */
export async function buildKitBuilder(): Promise<Builder> {
  const command = dockerCommand();
  const buildx = await runToExit(command, ["buildx", "version"], { timeoutMs: 30_000 }).catch(
    () => undefined,
  );
  if (buildx?.status === 0) {
    // --load: the image lands in Docker's image store whatever buildx's driver.
    return {
      command,
      build: ["buildx", "build", "--load"],
      env: process.env,
      description: `${command} buildx build`,
    };
  }
  return {
    command,
    build: ["build"],
    env: { ...process.env, DOCKER_BUILDKIT: "1" },
    description: `DOCKER_BUILDKIT=1 ${command} build`,
  };
}

/** Removes every container the checks labelled, running or not. */
export async function removeTestContainers(): Promise<number> {
  const ids = (await docker(["ps", "-aq", "--filter", `label=${TEST_LABEL}`])).split("\n").filter(Boolean);
  if (ids.length > 0) await docker(["rm", "-f", ...ids]);
  return ids.length;
}
