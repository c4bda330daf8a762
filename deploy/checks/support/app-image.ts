/**
 * The image under test: the repository's Dockerfile, built once per test
 * worker on the official Node 24 base when Docker has it or can pull it, else
 * on the local stand-in (./standin.ts). Specs call `appImage()` in beforeAll.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { buildKitBuilder, docker, run } from "./docker";
import { ensureStandIn, STANDIN_TAG } from "./standin";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
export const APP_IMAGE = "scaffold-test/app:latest";
/** Built into the image as SENTRY_RELEASE, to prove the build argument reaches the server. */
export const TEST_RELEASE = "deploy-checks";

export interface AppImage {
  tag: string;
  /** The NODE_IMAGE it was built on. */
  base: string;
  standIn: boolean;
  /** Seconds the stand-in took to make (0: reused), and the image build. */
  standInSeconds: number;
  buildSeconds: number;
}

/** The Dockerfile's default base, `ARG NODE_IMAGE=…`. */
export function defaultNodeImage(): string {
  const dockerfile = readFileSync(path.join(REPO_ROOT, "Dockerfile"), "utf8");
  const match = /^ARG NODE_IMAGE=(\S+)/m.exec(dockerfile);
  if (!match) throw new Error("Dockerfile: no ARG NODE_IMAGE=<default>");
  return match[1]!;
}

async function resolveBase(log: (line: string) => void) {
  const official = defaultNodeImage();
  if ((await run("docker", ["image", "inspect", official], { timeoutMs: 30_000 })).code === 0) {
    return { base: official, standIn: false, standInSeconds: 0 };
  }
  const pull = await run("docker", ["pull", official], { timeoutMs: 5 * 60_000 }).catch((error: Error) => ({
    code: 1,
    stdout: "",
    stderr: error.message,
  }));
  if (pull.code === 0) return { base: official, standIn: false, standInSeconds: 0 };
  const why = pull.stderr.trim().split("\n").pop();
  const standInSeconds = await ensureStandIn(log);
  log(
    `deploy checks: ${official} cannot be pulled (${why}); building on the local stand-in ${STANDIN_TAG} ` +
      (standInSeconds > 0 ? `(made in ${standInSeconds.toFixed(0)} s)` : "(cached)"),
  );
  return { base: STANDIN_TAG, standIn: true, standInSeconds };
}

async function build(log: (line: string) => void): Promise<AppImage> {
  const base = await resolveBase(log);
  const builder = await buildKitBuilder();
  const started = performance.now();
  const result = await run(
    builder.command,
    [
      "build",
      "--progress=plain",
      "--network=host",
      "--build-arg",
      `NODE_IMAGE=${base.base}`,
      "--build-arg",
      `SENTRY_RELEASE=${TEST_RELEASE}`,
      "--tag",
      APP_IMAGE,
      REPO_ROOT,
    ],
    { env: builder.env, timeoutMs: 30 * 60_000 },
  );
  if (result.code !== 0) throw new Error(`docker build failed:\n${result.stderr.slice(-6000)}`);
  const buildSeconds = (performance.now() - started) / 1000;
  const cached = (result.stderr.match(/^#\d+ CACHED$/gm) ?? []).length;
  log(
    `deploy checks: image ${APP_IMAGE} built on ${base.base} in ${buildSeconds.toFixed(1)} s (${cached} steps cached)`,
  );
  return { tag: APP_IMAGE, ...base, buildSeconds };
}

let built: Promise<AppImage> | undefined;

/** Builds the image once per worker (Docker's cache makes a rebuild after a worker restart quick). */
export function appImage(log: (line: string) => void = console.log): Promise<AppImage> {
  built ??= build(log);
  return built;
}

/** Size of an image in bytes, as Docker counts it (uncompressed layers). */
export async function imageBytes(tag: string): Promise<number> {
  return Number((await docker(["image", "inspect", "--format", "{{.Size}}", tag])).trim());
}
