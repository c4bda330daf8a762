/**
 * The image under test: the repository's Dockerfile, built once per test
 * worker on the base image NODE_IMAGE names (default: the Dockerfile's own,
 * the official Node 24 image), which `docker build` pulls when Docker lacks it.
 * Specs call `appImage()` in beforeAll.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { baseImageFailure, buildxMissing } from "./build-output";
import { runToExit } from "../../../test-support/run-to-exit";
import { buildKitBuilder, docker } from "./docker";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
export const APP_IMAGE = "scaffold-test/app:latest";
/** Built into the image as SENTRY_RELEASE, to prove the build argument reaches the server. */
export const TEST_RELEASE = "deploy-checks";

export interface AppImage {
  tag: string;
  /** The NODE_IMAGE it was built on. */
  base: string;
  /** Seconds the image build took. */
  buildSeconds: number;
}

/** The Dockerfile's default base, `ARG NODE_IMAGE=…`. */
export function defaultNodeImage(): string {
  const dockerfile = readFileSync(path.join(REPO_ROOT, "Dockerfile"), "utf8");
  const match = /^ARG NODE_IMAGE=(\S+)/m.exec(dockerfile);
  if (!match) throw new Error("Dockerfile: no ARG NODE_IMAGE=<default>");
  return match[1]!;
}

/** The base to build on: NODE_IMAGE when set, else the Dockerfile's default. */
export function nodeImage(): { image: string; from: string } {
  const given = process.env.NODE_IMAGE?.trim();
  return given
    ? { image: given, from: "NODE_IMAGE" }
    : { image: defaultNodeImage(), from: "the Dockerfile's default" };
}

async function build(log: (line: string) => void): Promise<AppImage> {
  const base = nodeImage();
  log(
    `deploy checks: base image ${base.image} (${base.from}${base.from === "NODE_IMAGE" ? "" : "; NODE_IMAGE=<image> for another"})`,
  );
  const builder = await buildKitBuilder();
  log(`deploy checks: building with ${builder.description}`);
  const started = performance.now();
  const result = await runToExit(
    builder.command,
    [
      ...builder.build,
      "--progress=plain",
      "--network=host",
      "--build-arg",
      `NODE_IMAGE=${base.image}`,
      "--build-arg",
      `SENTRY_RELEASE=${TEST_RELEASE}`,
      "--tag",
      APP_IMAGE,
      REPO_ROOT,
    ],
    { env: builder.env, timeoutMs: 30 * 60_000, group: true },
  );
  if (result.status !== 0) {
    const output = result.stderr + result.stdout;
    const baseFailure = baseImageFailure(output);
    if (baseFailure) {
      throw new Error(
        `docker build failed: the base image ${base.image} (${base.from}) is not in Docker and could not be pulled ` +
          `(${baseFailure.image}: ${baseFailure.reason}). Set NODE_IMAGE to a Node 24 image that Docker has or can pull.`,
      );
    }
    if (buildxMissing(output)) {
      throw new Error(
        `${builder.description} failed: this Docker CLI builds with BuildKit only through the buildx plugin, ` +
          `which it lacks. Install buildx, or set DOCKER to a Docker CLI that has it or is older than 23 ` +
          `(e.g. the 20.10 CLI of Debian 12's docker.io).\n${output.slice(-2000)}`,
      );
    }
    throw new Error(`${builder.description} on ${base.image} failed:\n${output.slice(-6000)}`);
  }
  const buildSeconds = (performance.now() - started) / 1000;
  const cached = (result.stderr.match(/^#\d+ CACHED$/gm) ?? []).length;
  log(
    `deploy checks: image ${APP_IMAGE} built on ${base.image} in ${buildSeconds.toFixed(1)} s (${cached} steps cached)`,
  );
  return { tag: APP_IMAGE, base: base.image, buildSeconds };
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
