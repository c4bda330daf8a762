/**
 * One container of the app image, on the host network (the only network
 * Docker has here) and listening on 127.0.0.1 only, at a free port. The test
 * that starts it removes it in `finally`; the global teardown removes any the
 * label still finds.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { freePort } from "../../../test-support/free-port";
import { SENTRY_FLUSH_MS, SHUTDOWN_GRACE_MS } from "../../../server/shutdown";
import { docker, runDocker, TEST_LABEL } from "./docker";

/** Seconds `docker stop` waits before SIGKILL: the app's drain and flush, plus margin. */
export const STOP_TIMEOUT_S = Math.ceil((SHUTDOWN_GRACE_MS + SENTRY_FLUSH_MS) / 1000) + 3;

export interface ContainerOptions {
  /** Extra `docker run` options (--read-only, -v…). */
  runArgs?: string[];
  env?: Record<string, string>;
}

export interface LogRecord {
  level?: string;
  msg?: string;
  [key: string]: unknown;
}

export class Container {
  private hostPid: number | undefined;

  private constructor(
    readonly name: string,
    readonly url: string,
  ) {}

  static async start(image: string, options: ContainerOptions = {}): Promise<Container> {
    const port = await freePort();
    const name = `scaffold-test-${randomBytes(4).toString("hex")}`;
    const env = { PORT: String(port), HOST: "127.0.0.1", ...options.env };
    await docker([
      "run",
      "--detach",
      "--name",
      name,
      "--label",
      TEST_LABEL,
      "--network",
      "host",
      "--stop-timeout",
      String(STOP_TIMEOUT_S),
      ...Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
      ...(options.runArgs ?? []),
      image,
    ]);
    return new Container(name, `http://127.0.0.1:${port}`);
  }

  /** Resolves once /healthz answers 200, or throws with the container's output. */
  async waitUntilServing(timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const ok = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return;
      if ((await this.inspect("{{.State.Running}}")) !== "true") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`container ${this.name} not serving /healthz:\n${await this.logs()}`);
  }

  async inspect(format: string): Promise<string> {
    return (await docker(["inspect", "--format", format, this.name])).trim();
  }

  /** Everything the container printed, stdout and stderr. */
  async logs(): Promise<string> {
    const result = await runDocker(["logs", this.name], { timeoutMs: 30_000 });
    return result.stdout + result.stderr;
  }

  /** Its output lines that are JSON records (stdout and stderr alike). */
  async logRecords(): Promise<LogRecord[]> {
    return (await this.logs()).split("\n").flatMap((line) => {
      if (!line.startsWith("{")) return [];
      try {
        return [JSON.parse(line) as LogRecord];
      } catch {
        return [];
      }
    });
  }

  /** Runs a command in the container (its own binaries only). */
  async exec(args: string[], env: Record<string, string> = {}) {
    const envArgs = Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]);
    return runDocker(["exec", ...envArgs, this.name, ...args], { timeoutMs: 60_000 });
  }

  /**
   * /proc/<pid>/status of the container's main process. Read from the host's
   * /proc when the engine runs on this machine (no process started in the
   * container, which would disturb a measurement), else through docker exec.
   */
  async mainProcessStatus(): Promise<Record<string, string>> {
    this.hostPid ??= Number(await this.inspect("{{.State.Pid}}"));
    let text: string;
    try {
      text = readFileSync(`/proc/${this.hostPid}/status`, "utf8");
    } catch {
      text = (await this.exec(["cat", "/proc/1/status"])).stdout;
    }
    return Object.fromEntries(
      text.split("\n").flatMap((line) => {
        const match = /^(\w+):\s*(.*)$/.exec(line);
        return match ? [[match[1]!, match[2]!]] : [];
      }),
    );
  }

  /** `docker stop`; resolves with the seconds it took and the exit code. */
  async stop(): Promise<{ seconds: number; exitCode: number }> {
    const started = performance.now();
    await docker(["stop", this.name], { timeoutMs: (STOP_TIMEOUT_S + 60) * 1000 });
    const seconds = (performance.now() - started) / 1000;
    return { seconds, exitCode: Number(await this.inspect("{{.State.ExitCode}}")) };
  }

  async remove(): Promise<void> {
    await runDocker(["rm", "-f", this.name], { timeoutMs: 60_000 });
  }
}
