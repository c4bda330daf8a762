/**
 * Every way the production server can fail to start ends in one JSON line
 * saying what to do, and exit code 1: a busy port, no build, a build of
 * another version, a build that cannot be loaded, a Node older than
 * package.json's `engines`. Real processes through the real start script.
 * (Bad settings: e2e/operations/operations.spec.ts, "configuration".)
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { baseEnv, commandPath, parseStartScript, startApp } from "../../test-support/app-server";
import { FRAMEWORK } from "../../test-support/framework";
import { runToExit } from "../../test-support/run-to-exit";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // the app holding the port

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  scripts: { start: string };
  engines: { node: string };
};

/** Runs the start script to its end with the server bundle `bundle`; its output as lines. */
async function startExpectingExit({
  bundle = "./build-e2e/server/index.js",
  env = {},
  node,
}: { bundle?: string; env?: Record<string, string>; node?: string } = {}) {
  const start = parseStartScript(pkg.scripts.start);
  const args = start.args.map((arg) => arg.replace(/^(\.\/)?build\/server\/index\.js$/, bundle));
  // Another Node: the command `node` itself, or the one remix-serve's `#!/usr/bin/env node` finds first.
  const command = node && start.command === "node" ? node : commandPath(process.cwd(), start.command);
  const PATH = node ? `${path.dirname(node)}:${process.env.PATH}` : process.env.PATH;
  const result = await runToExit(command, args, {
    env: {
      ...baseEnv(),
      PATH,
      ...start.env,
      PORT: "0",
      HOST: "127.0.0.1",
      ...env,
    } as unknown as NodeJS.ProcessEnv,
  });
  const lines = (result.stdout + result.stderr).split("\n").filter(Boolean);
  return {
    status: result.status,
    lines,
    records: lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** The one `fatal` record of a failed start, after no more than the `starting` line. */
function failure(result: Awaited<ReturnType<typeof startExpectingExit>>): Record<string, unknown> {
  expect(result.status, result.lines.join("\n")).toBe(1);
  expect(result.records.filter((record) => record.msg !== "starting")).toHaveLength(1);
  const record = result.records.at(-1)!;
  expect(record).toMatchObject({ level: "fatal" });
  return record;
}

const dirs: string[] = [];
test.afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the e2e build's server folder, `change`d; the path of its bundle. */
function changedBuild(change: (serverDir: string) => void): string {
  // In the project, where the bundle finds its packages; test-results/ is ignored by git.
  mkdirSync("test-results", { recursive: true });
  const dir = mkdtempSync(path.resolve("test-results/start-failure-"));
  dirs.push(dir);
  cpSync("build-e2e/server", path.join(dir, "server"), { recursive: true });
  change(path.join(dir, "server"));
  return path.join(dir, "server/index.js");
}

test("a busy port names the port and PORT", async () => {
  const app = await startApp();
  try {
    const record = failure(await startExpectingExit({ env: { PORT: String(app.port) } }));
    expect(record.msg).toBe(
      `cannot start: port ${app.port} is in use: stop what uses it, or set PORT to another`,
    );
    expect(record).toMatchObject({ code: "EADDRINUSE", port: app.port });
  } finally {
    await app.stop();
  }
});

test("no build says to run npm run build", async () => {
  const record = failure(await startExpectingExit({ bundle: "./build-missing/server/index.js" }));
  expect(record.msg).toBe("cannot start: no server build in build-missing/server: run `npm run build`");
});

test("a build of another version of the app says to run npm run build", async () => {
  // The other framework's boot: Remix 2's exports `booted`, React Router 8's `startServer`.
  const otherBoot =
    FRAMEWORK === "remix-2"
      ? "export async function startServer() {}\n"
      : "export const booted = Promise.resolve();\n";
  const bundle = changedBuild((server) => writeFileSync(path.join(server, "boot.js"), otherBoot));
  const record = failure(await startExpectingExit({ bundle }));
  expect(record.msg).toBe(
    "cannot start: the server build is of another version of the app: run `npm run build`",
  );
});

test("a build that cannot be loaded (cut short) says to run npm run build, and why", async () => {
  const bundle = changedBuild((server) => {
    const boot = path.join(server, "boot.js");
    const text = readFileSync(boot, "utf8");
    // Ends inside a block, as an interrupted copy might.
    writeFileSync(boot, text.slice(0, text.indexOf("{") + 1));
  });
  const record = failure(await startExpectingExit({ bundle }));
  expect(record.msg).toBe("cannot start: the server build cannot be loaded: run `npm run build`");
  expect(record.error).toMatch(/^SyntaxError: /);
});

/** A Node older than `engines` allows, if this machine has one (Debian's own `node`, say). */
function olderNode(): string | undefined {
  const needed = Number(/\d+/.exec(pkg.engines.node)![0]);
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ["--version"], { encoding: "utf8" });
    if (Number(/^v(\d+)/.exec(version)![1]) < needed) return candidate;
  }
  return undefined;
}

test("a Node older than package.json's engines names both versions", async () => {
  const node = olderNode();
  test.skip(!node, "no Node older than package.json's engines on this machine");
  const record = failure(await startExpectingExit({ node }));
  expect(record.msg).toMatch(
    /^cannot start: Node \d+ or newer is needed, this is v\d+\.\d+\.\d+ \(package\.json: engines\)$/,
  );
});
