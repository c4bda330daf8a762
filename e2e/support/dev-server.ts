/**
 * Starts the development server the way `npm run dev` does — the command read
 * from package.json's `dev` script — with the e2e fixture routes, on a free
 * port of 127.0.0.1, and captures its output (pretty log records, not JSON):
 * through a pipe, or through a terminal for the colours a terminal gets.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import {
  baseEnv,
  EXIT_WITH_PARENT,
  parseStartScript,
  superviseServer,
  type AppServer,
} from "../../test-support/app-server";
import { freePort } from "../../test-support/free-port";
import { countServerStart } from "../../test-support/server-starts";

const root = path.resolve(import.meta.dirname, "../..");

/** What `npm run dev -- --config e2e/fixtures/vite.config.ts` runs, and the script's environment assignments. */
export function devCommand() {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: { dev: string };
  };
  const dev = parseStartScript(pkg.scripts.dev);
  // The e2e build's config: the app's own plus the fixture routes (never in a plain `npm run dev`).
  return { ...dev, args: [...dev.args, "--config", "e2e/fixtures/vite.config.ts"] };
}

/** The environment `npm run dev` gives the command, plus `env` (variables of the test process do not leak in). */
export function devEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const dev = devCommand();
  const base = baseEnv();
  return {
    ...base,
    // `npm run` puts the project's binaries first on PATH.
    PATH: `${path.join(root, "node_modules/.bin")}${path.delimiter}${base.PATH ?? ""}`,
    ...dev.env,
    NODE_OPTIONS: `${dev.env.NODE_OPTIONS ?? ""} ${EXIT_WITH_PARENT}`.trim(),
    ...env,
  } as unknown as NodeJS.ProcessEnv;
}

export async function startDevServer(
  env: Record<string, string | undefined> = {},
  { terminal = false, options = [] }: { terminal?: boolean; options?: string[] } = {},
): Promise<AppServer> {
  countServerStart();
  const dev = devCommand();
  const [command, args] = [dev.command, [...dev.args, ...options]];
  const port = await freePort();
  const childEnv = devEnv({ PORT: String(port), HOST: "127.0.0.1", ...env });
  const child = terminal
    ? // `script` (util-linux) runs it on a pseudo-terminal and copies what it writes to our pipe;
      // stdin stays open, as a terminal's would. A signal ends the session (no graceful shutdown).
      spawn("script", ["--quiet", "--flush", "--command", shellWords([command, ...args]), "/dev/null"], {
        cwd: root,
        env: childEnv,
        stdio: ["pipe", "pipe", "pipe"],
      })
    : spawn(command, args, { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  // Vite prints the URL once it listens (after the boot's `starting` record).
  return superviseServer(child, port, (output) =>
    /Local:\s+http:\/\/127\.0\.0\.1:\d+/.test(stripVTControlCharacters(output)),
  );
}

/** One shell command line of `words`, each quoted. */
function shellWords(words: string[]): string {
  return words.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
}
