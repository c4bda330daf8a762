/**
 * Starts the production server the way `npm start` does — the same command,
 * read from package.json, so the tests prove the real start script — on a
 * free port of 127.0.0.1, and captures its output for log assertions.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { onFreePort } from "./free-port";
import { countServerStart } from "./server-starts";

const root = path.resolve(import.meta.dirname, "..");

/**
 * How long a server may take to start (production or Vite's dev server); see the figures where it
 * is waited for below.
 */
export const SERVER_START_LIMIT_MS = 120_000;
/**
 * The time slot of whatever starts a server and stops it again (test-with-app.ts's `app` or a
 * `beforeAll`): the start's limit and a drain on stop. A hook that starts a server sets it with
 * `test.setTimeout`, or Playwright gives the hook the test's limit and a slow start fails there.
 */
export const SERVER_HOOK_LIMIT_MS = SERVER_START_LIMIT_MS + 60_000;

/** Preloaded after the start script's own preload: the server exits when the test worker is gone. */
export const EXIT_WITH_PARENT = "--import ./test-support/exit-with-parent.mjs";

export interface StartOptions {
  /** Build directory: `build-e2e` (with fixtures, the default), `build`, or `build-bench[-<routes>]`. */
  build?: "build" | "build-e2e" | "build-bench" | `build-bench-${number}`;
  /**
   * The project whose start script, packages and build run (default: this one).
   * The benchmark starts the upgraded React Router 8 tree beside this one with it.
   */
  root?: string;
  /** Extra environment (SENTRY_DSN…). Variables of the test process do not leak in. */
  env?: Record<string, string | undefined>;
  /** Modules preloaded (`--import`) before the start script's own preload, e.g. a probe of what the server loads. */
  preload?: string[];
}

export interface LogLine {
  level?: string;
  msg?: string;
  digest?: string;
  [key: string]: unknown;
}

export interface AppServer {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** What the server printed on stdout only. */
  stdout(): string;
  /** Its stdout lines that are JSON log records. */
  logLines(): LogLine[];
  /** Resolves with the first log record that matches, waiting up to `timeout` ms. */
  waitForLog(predicate: (line: LogLine) => boolean, timeout?: number): Promise<LogLine>;
  /** Sends `signal` and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Splits the start script into environment assignments, command and arguments (single and double quotes). */
export function parseStartScript(script: string): {
  env: Record<string, string>;
  command: string;
  args: string[];
} {
  const words = [...script.matchAll(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g)].map((match) =>
    match[0].replace(/'([^']*)'|"([^"]*)"/g, (_, single: string, double: string) => single ?? double),
  );
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split("=");
    env[name!] = value.join("=");
  }
  const [command, ...args] = words;
  if (!command) throw new Error(`start script has no command: ${script}`);
  return { env, command, args };
}

/** The executable a start script's command names: Node itself for `node` (a server of the app's own), else the project's binary. */
export function commandPath(projectRoot: string, command: string): string {
  return command === "node" ? process.execPath : path.join(projectRoot, "node_modules/.bin", command);
}

/**
 * Environment a test server inherits: the essentials only, so a developer's
 * SENTRY_DSN never leaks into a test. SCAFFOLD_TEST_RUN marks the processes of
 * one `npm test` run, so scripts/run-tests.mjs can stop any that are left.
 * `ENV_FILE=` keeps a developer's `.env` out too (a test that is about the
 * env file sets its own). NODE_COMPILE_CACHE: the run's cache of compiled
 * modules (scripts/run-tests.mjs), which changes no behaviour.
 */
export function baseEnv(): Record<string, string> {
  const keep = ["PATH", "HOME", "TMPDIR", "LANG", "TZ", "SCAFFOLD_TEST_RUN", "NODE_COMPILE_CACHE"];
  const kept = Object.fromEntries(
    keep.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
  );
  return { ...kept, ENV_FILE: "" };
}

/** Starts the app for the running spec file, which is charged for it (server-starts.ts). */
export async function startApp(options: StartOptions = {}): Promise<AppServer> {
  countServerStart();
  return launchApp(options);
}

/** Starts the app without charging a spec file: the worker's shared app (test-with-app.ts). */
export function launchApp(options: StartOptions = {}): Promise<AppServer> {
  // A port the caller chose (or `PORT: "0"`, any) is its to keep.
  const chosen = options.env?.PORT;
  if (chosen !== undefined) return launchOn(options, Number(chosen));
  return onFreePort(
    (port) => launchOn(options, port),
    (error) => String(error).includes('"code":"EADDRINUSE"'),
  );
}

async function launchOn(options: StartOptions, port: number): Promise<AppServer> {
  const build = options.build ?? "build-e2e";
  const projectRoot = options.root ?? root;
  const pkg = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const start = parseStartScript(pkg.scripts.start);
  const args = start.args.map((arg) => arg.replace(/^(\.\/)?build\//, `./${build}/`));
  // `PORT: "0"`: the server takes any free port, read from its banner below.
  const anyPort = port === 0;

  const child = spawn(commandPath(projectRoot, start.command), args, {
    cwd: projectRoot,
    env: {
      ...baseEnv(),
      ...start.env,
      NODE_OPTIONS: [
        ...(options.preload ?? []).map((module) => `--import ${module}`),
        start.env.NODE_OPTIONS ?? "",
        EXIT_WITH_PARENT,
      ]
        .join(" ")
        .trim(),
      PORT: String(port),
      HOST: "127.0.0.1",
      ...options.env,
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The banner remix-serve prints once it listens, or the app's own server's `listening` line.
  const listening = /\[(?:remix|react-router)-serve\] |"msg":"listening"/;
  if (!anyPort) return superviseServer(child, port, (output) => listening.test(output));
  // remix-serve's banner names port 0: the app's own `listening` line names the port taken.
  const taken = (output: string) => {
    const line = output.split("\n").find((text) => text.includes('"msg":"listening"'));
    return Number(URL.parse((line && (JSON.parse(line) as { url?: string }).url) ?? "")?.port || NaN);
  };
  const server = await superviseServer(child, port, (output) => taken(output) > 0);
  return { ...server, port: taken(server.output()), url: `http://127.0.0.1:${taken(server.output())}` };
}

/**
 * The handle on a server process a test started (`startApp`, `startDevServer`):
 * its output, its log lines and its end. Resolves once `started(output)` is true.
 */
export async function superviseServer(
  child: ChildProcess,
  port: number,
  started: (output: string) => boolean,
): Promise<AppServer> {
  let output = "";
  let stdout = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const listener of listeners) listener();
  };
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    onData(chunk);
  });
  child.stderr!.on("data", onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );

  const waitForOutput = (test: () => boolean, timeout: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${what} within ${timeout} ms. Server output:\n${output}`));
      }, timeout);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then(() => {
        if (listeners.has(check)) {
          cleanup();
          reject(new Error(`server exited before: ${what}. Output:\n${output}`));
        }
      });
      check();
    });

  const logLines = (): LogLine[] =>
    output.split("\n").flatMap((line) => {
      if (!line.startsWith("{")) return [];
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });

  // Over 4x the slowest start seen on a loaded machine (bench/README.md, "How long the test suite
  // takes"), and a server that never starts still fails. Whoever waits for this needs a limit above
  // it (SERVER_HOOK_LIMIT_MS).
  await waitForOutput(() => started(output), SERVER_START_LIMIT_MS, "server did not start");

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output: () => output,
    stdout: () => stdout,
    logLines,
    async waitForLog(predicate, timeout = 20_000) {
      await waitForOutput(() => logLines().some(predicate), timeout, "no matching log line");
      return logLines().find(predicate)!;
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
