/**
 * The server answers files from the client build alone: Vite copies `public/`
 * into it, so the app's own server (server/app-server.ts) does not look in
 * `public/` again at run time, as `react-router-serve` does; what the build held
 * at start is the only thing looked up there (docs/decisions/0102). A copy of the e2e build
 * without `robots.txt`, started from the project (whose `public/` has it).
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import {
  baseEnv,
  commandPath,
  EXIT_WITH_PARENT,
  parseStartScript,
  SERVER_HOOK_LIMIT_MS,
  superviseServer,
  type AppServer,
} from "../../test-support/app-server";
import { freePort } from "../../test-support/free-port";
import { expect, test } from "../support/spec-helpers";

let app: AppServer;
let dir: string;

test.beforeAll(async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  expect(existsSync("public/robots.txt")).toBe(true);
  // In the project, where the bundle finds its packages; test-results/ is ignored by git.
  mkdirSync("test-results", { recursive: true });
  dir = mkdtempSync(path.resolve("test-results/static-files-"));
  cpSync("build-e2e", dir, { recursive: true, filter: (file) => path.basename(file) !== "robots.txt" });
  const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } };
  const start = parseStartScript(scripts.start);
  const args = start.args.map((arg) => arg.replace(/^(\.\/)?build\//, `${dir}/`));
  const port = await freePort();
  const child = spawn(commandPath(process.cwd(), start.command), args, {
    env: {
      ...baseEnv(),
      ...start.env,
      NODE_OPTIONS: EXIT_WITH_PARENT,
      PORT: String(port),
      HOST: "127.0.0.1",
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  app = await superviseServer(child, port, (output) => output.includes('"msg":"listening"'));
});

test.afterAll(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a file of public/ is served from the build's copy", async ({ request }) => {
  const response = await request.get(`${app.url}/favicon.svg`);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
});

test("public/ itself is not looked up: a file the build lacks is the app's 404", async ({ request }) => {
  const response = await request.get(`${app.url}/robots.txt`);
  expect(response.status()).toBe(404);
  expect(response.headers()["content-type"]).toMatch(/^text\/html/);
});
