/**
 * `npm run test:deploy`: the deploy checks need a Docker engine. Without one
 * this prints one line saying what was skipped and why, and exits 0, or 1
 * under CI=true (where a skipped check must not look like a passed one).
 * With one it runs Playwright with deploy/checks/playwright.config.ts,
 * passing its arguments on (e.g. a spec file).
 *
 * Inputs (environment):
 * - NODE_IMAGE: the base image the app image is built on (default: the
 *   Dockerfile's `ARG NODE_IMAGE=`, the official Node 24 image), pulled by
 *   `docker build` when Docker lacks it;
 * - DOCKER: the Docker CLI to run (default `docker`). The image is built with
 *   `docker buildx build` when the CLI has buildx, else with
 *   `DOCKER_BUILDKIT=1 docker build`, which only CLIs older than 23 can do.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { dockerUnavailable } from "./support/docker";

const why = dockerUnavailable();
if (why) {
  const ci = Boolean(process.env.CI) && !["0", "false"].includes(process.env.CI!);
  console.log(`deploy checks skipped: ${why}${ci ? " (CI=true: failing)" : ""}`);
  process.exit(ci ? 1 : 0);
}

const config = path.join(import.meta.dirname, "playwright.config.ts");
const child = spawn("npx", ["playwright", "test", "-c", config, ...process.argv.slice(2)], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
