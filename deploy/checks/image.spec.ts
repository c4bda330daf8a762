/**
 * The production image, built from the Dockerfile with Docker and run for
 * real: what it holds, how it serves, how it stops. Containers listen on
 * 127.0.0.1 of the host network; each is removed in `finally`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { appImage, REPO_ROOT, TEST_RELEASE, type AppImage } from "./support/app-image";
import { Container } from "./support/container";
import { runToExit } from "../../test-support/run-to-exit";
import { docker } from "./support/docker";
import { imageShare, listApp, lockedPackages, mib } from "./support/image-contents";
import { DIGEST_PATTERN } from "../../app/errors/digest";
import { digestInHtml } from "../../test-support/error-digest";
import { FRAMEWORK } from "../../test-support/framework";

/**
 * What the image runs as process 1: node itself, with the boot preloaded before remix-serve's CLI
 * (Remix 2), or the app's own server (React Router 8, docs/decisions/0067).
 */
const IMAGE_COMMAND =
  FRAMEWORK === "remix-2"
    ? ["node", "--import", "./boot.mjs", "node_modules/@remix-run/serve/dist/cli.js", "build/server/index.js"]
    : ["node", "server.mjs", "build/server/index.js"];
/** The image's /app: the built app, its production dependencies, and what starts it. */
const IMAGE_TOP = [
  "build",
  "node_modules",
  "package.json",
  FRAMEWORK === "remix-2" ? "boot.mjs" : "server.mjs",
].sort();

let image: AppImage;

test.beforeAll(async () => {
  // A cold build: the base pulled if Docker lacks it, two npm installs and the Vite build (minutes),
  // x3 headroom.
  test.setTimeout(45 * 60_000);
  image = await appImage();
});

test("the image holds the built app and production dependencies only", async () => {
  const listing = await listApp(image.tag);
  expect(listing.top).toEqual(IMAGE_TOP);
  // Source maps of the server build only: Node maps the server's stacks through them (the boot turns that on),
  // and the server build is never served. The browser's are uploaded and deleted, or never built.
  expect(
    listing.files.filter((file) => file.endsWith(".map") && !file.startsWith("/app/build/server/")),
  ).toEqual([]);
  expect(listing.files).toContain("/app/build/server/index.js.map");
  // No tests, fixtures or local settings, ours or the packages' own.
  const packageExtras =
    /\/node_modules\/(@[^/]+\/[^/]+|[^@/][^/]*)\/(test|tests|__tests__|fixtures|benchmarks|examples)\//;
  expect(
    listing.files.filter((file) => /\.(test|spec)\.|\/\.env|\/e2e\//.test(file) || packageExtras.test(file)),
  ).toEqual([]);
  expect(listing.files).toContain("/app/build/server/index.js");
  expect(listing.serverHasFixtureRoutes).toBe(false);

  const present = new Set(listing.files.map((file) => path.dirname(file)));
  const { dev, production } = lockedPackages();
  expect(dev.filter((pkg) => present.has(`/app/${pkg}`))).toEqual([]);
  expect(production.filter((pkg) => !present.has(`/app/${pkg}`))).toEqual([]);
  for (const tool of ["vite", "vitest", "@playwright/test", "tsx", "eslint", "typescript", "esbuild"]) {
    expect(present.has(`/app/node_modules/${tool}`), tool).toBe(false);
  }
  // One server SDK: the browser SDK is built into the bundle, so neither it nor the older
  // `@sentry/node` it depends on is installed beside the server's.
  expect(listing.files.filter((file) => file.endsWith("/node_modules/@sentry/node/package.json"))).toEqual([
    "/app/node_modules/@sentry/node/package.json",
  ]);
  expect(present.has("/app/node_modules/@sentry/remix")).toBe(false);
  // Spotlight is development's (tools/spotlight/): neither it nor its pinned hono is here.
  for (const pkg of ["@spotlightjs/spotlight", "hono"])
    expect(present.has(`/app/node_modules/${pkg}`), pkg).toBe(false);

  const config = JSON.parse(
    await docker(["image", "inspect", "--format", "{{json .Config}}", image.tag]),
  ) as {
    User: string;
    Env: string[];
    Entrypoint: string[] | null;
    Cmd: string[];
    ExposedPorts: Record<string, unknown>;
    Healthcheck: { Test: string[] };
  };
  expect(config.User).toBe("1000:1000");
  expect(config.Env).toEqual(
    expect.arrayContaining(["NODE_ENV=production", `SENTRY_RELEASE=${TEST_RELEASE}`]),
  );
  expect(config.Entrypoint ?? []).toEqual([]);
  expect(config.Cmd).toEqual(IMAGE_COMMAND);
  expect(Object.keys(config.ExposedPorts)).toEqual(["3000/tcp"]);
  expect(config.Healthcheck.Test.join(" ")).toContain("/healthz");
  const history = await docker(["history", "--no-trunc", "--format", "{{.CreatedBy}}", image.tag]);
  expect(JSON.stringify(config) + history).not.toMatch(/SENTRY_AUTH_TOKEN|sentry_auth_token/);

  const size = await imageShare(image.tag, image.base);
  const contents = `node_modules ${mib(listing.nodeModulesBytes)}, build ${mib(listing.buildBytes)}`;
  console.log(
    size.base === undefined || size.app === undefined
      ? `image ${image.tag}: ${mib(size.total)}; base ${image.base} not in Docker's image store (${contents})`
      : `image ${image.tag}: ${mib(size.total)}; base ${image.base} ${mib(size.base)}; ` +
          `the app's share ${mib(size.app)} (${((100 * size.app) / size.total).toFixed(0)} %: ${contents})`,
  );
});

test("serves as a non-root node process 1, healthy, and stops with exit code 0", async () => {
  test.setTimeout(5 * 60_000);
  // The image's own health check, only run more often than its 30 s.
  const container = await Container.start(image.tag, { runArgs: ["--health-interval=1s"] });
  try {
    await container.waitUntilServing();
    const home = await fetch(`${container.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-security-policy")).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    expect((await fetch(`${container.url}/nope`)).status).toBe(404);
    const health = await fetch(`${container.url}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, "ok"]);

    const cmdline = (await container.exec(["cat", "/proc/1/cmdline"])).stdout.split("\0").filter(Boolean);
    expect(cmdline).toEqual(IMAGE_COMMAND);
    const uids = (await container.mainProcessStatus()).Uid!.split(/\s+/).map(Number);
    expect(uids.every((uid) => uid !== 0)).toBe(true);
    // The app's files are root's: the server cannot change its own code.
    expect((await container.exec(["touch", "/app/build/server/index.js"])).status).not.toBe(0);
    const starting = (await container.logRecords()).find((line) => line.msg === "starting");
    expect(starting?.release).toBe(TEST_RELEASE);

    await expect
      .poll(() => container.inspect("{{.State.Health.Status}}"), { timeout: 60_000 })
      .toBe("healthy");
    // The same health command fails when nothing answers on the port it is given.
    const healthCommand = JSON.parse(
      await container.inspect("{{json .Config.Healthcheck.Test}}"),
    ) as string[];
    expect((await container.exec(healthCommand.slice(1), { PORT: "1" })).status).not.toBe(0);

    // Many at once, as a balancer sends them: every one answered.
    const statuses = await Promise.all(
      Array.from({ length: 48 }, () =>
        fetch(`${container.url}/`).then(async (response) => (await response.arrayBuffer(), response.status)),
      ),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const stop = await container.stop();
    console.log(`docker stop (idle): ${stop.seconds.toFixed(2)} s, exit code ${stop.exitCode}`);
    expect(stop.exitCode).toBe(0);
    const shutdown = (await container.logRecords()).find((line) => line.msg === "shutting down");
    expect(shutdown?.signal).toBe("SIGTERM");
  } finally {
    await container.remove();
  }
});

test("read-only root, e2e build mounted: error digest in docker logs, in-flight request drained on stop", async () => {
  test.setTimeout(10 * 60_000);
  // The shipped image has no route that throws; the e2e build's fixtures do. Mounted read-only
  // over /app/build, it runs on the image's node_modules and start command, unmodified.
  if (!existsSync(path.join(REPO_ROOT, "build-e2e/server/index.js"))) {
    const built = await runToExit("npm", ["run", "build:e2e"], {
      cwd: REPO_ROOT,
      timeoutMs: 8 * 60_000,
      group: true,
    });
    expect(built.status, built.stderr).toBe(0);
  }
  const container = await Container.start(image.tag, {
    runArgs: [
      "--read-only",
      "--tmpfs",
      "/tmp",
      "--volume",
      `${path.join(REPO_ROOT, "build-e2e")}:/app/build:ro`,
    ],
  });
  try {
    await container.waitUntilServing();
    expect((await fetch(`${container.url}/`)).status).toBe(200);

    const failing = await fetch(`${container.url}/fixtures/loader-error`);
    expect(failing.status).toBe(500);
    const body = await failing.text();
    const digest = digestInHtml(body);
    expect(digest).toMatch(DIGEST_PATTERN);
    expect(body).not.toContain("secret-token-123");
    await expect
      .poll(async () => (await container.logRecords()).filter((line) => line.digest === digest), {
        timeout: 10_000,
      })
      .toEqual([expect.objectContaining({ level: "error", path: "/fixtures/loader-error" })]);

    const inFlight = fetch(`${container.url}/fixtures/slow?ms=3000`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stopping = container.stop();
    const response = await inFlight;
    expect(response.status).toBe(200);
    const stop = await stopping;
    console.log(
      `docker stop (one request 3 s in flight): ${stop.seconds.toFixed(2)} s, exit code ${stop.exitCode}`,
    );
    expect(stop.exitCode).toBe(0);
  } finally {
    await container.remove();
  }
});
