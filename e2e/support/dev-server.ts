/**
 * Starts the development server the way `npm run dev` does — the command read
 * from package.json's `dev` script — with the e2e fixture routes, on a free
 * port of 127.0.0.1, and captures its output (pretty log records, not JSON).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  baseEnv,
  EXIT_WITH_PARENT,
  freePort,
  parseStartScript,
  superviseServer,
  type AppServer,
} from "../../test-support/app-server";

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

/** Colours and other terminal escapes, which the pretty logger writes even into a pipe. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex -- the escape character is the point
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

export async function startDevServer(env: Record<string, string | undefined> = {}): Promise<AppServer> {
  const { command, args } = devCommand();
  const port = await freePort();
  const child = spawn(command, args, {
    cwd: root,
    env: devEnv({ PORT: String(port), HOST: "127.0.0.1", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Vite prints the URL once it listens (after the boot's `starting` record).
  return superviseServer(child, port, (output) =>
    /Local:\s+http:\/\/127\.0\.0\.1:\d+/.test(stripAnsi(output)),
  );
}
