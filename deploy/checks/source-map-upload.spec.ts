/**
 * The image's source-map upload, built for real with a token (a BuildKit secret) and Sentry's
 * address as build arguments: refused without a release; with one, the stand-in of Sentry's
 * upload API on 127.0.0.1 (test-support/sentry-upload-stand-in.ts) receives the map of every
 * chunk the image serves, under that release, and no browser map is left in the image.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { appImage, REPO_ROOT, type AppImage } from "./support/app-image";
import { runToExit } from "../../test-support/run-to-exit";
import { buildKitBuilder, docker, TEST_LABEL } from "./support/docker";
import { listApp } from "./support/image-contents";
import { startUploadStandIn, type UploadStandIn } from "../../test-support/sentry-upload-stand-in";
import { servedFiles, uploadProblems } from "../../test-support/sentry-upload/check";

const UPLOADED_IMAGE = "scaffold-test/app-uploaded:latest";
const RELEASE = "deploy-checks-upload";

let base: AppImage;
let dir: string;
let standIn: UploadStandIn;

test.beforeAll(async () => {
  test.setTimeout(45 * 60_000);
  // The plain image first: its layers are the cache the builds below reuse.
  base = await appImage();
  dir = mkdtempSync(path.join(tmpdir(), "scaffold-upload-"));
  // A file, not env=: the 20.10 CLI's BuildKit client reads secrets from files only.
  writeFileSync(path.join(dir, "token"), "not-a-real-token", { mode: 0o600 });
  standIn = await startUploadStandIn();
});
test.afterAll(async () => {
  await standIn?.close();
  await docker(["rmi", "--force", UPLOADED_IMAGE]).catch(() => undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function buildWithToken(args: string[]) {
  const builder = await buildKitBuilder();
  return runToExit(
    builder.command,
    [
      ...[...builder.build, "--progress=plain", "--network=host"],
      ...["--build-arg", `NODE_IMAGE=${base.base}`, "--build-arg", "SENTRY_ORG=o"],
      ...["--build-arg", "SENTRY_PROJECT=p", "--build-arg", `SENTRY_URL=${standIn.url}`],
      ...["--secret", `id=sentry_auth_token,src=${path.join(dir, "token")}`, ...args, REPO_ROOT],
    ],
    { env: builder.env, timeoutMs: 15 * 60_000, group: true },
  );
}

test("a token without SENTRY_RELEASE stops the build", async () => {
  test.setTimeout(20 * 60_000);
  const result = await buildWithToken(["--target=build"]);
  expect(result.status).not.toBe(0);
  expect(result.stderr).toContain("SENTRY_RELEASE (build argument) is needed to upload source maps");
  expect(standIn.record.requests).toEqual([]);
});

test("with a release, every chunk the image serves has its map uploaded under it, and no browser map is left", async () => {
  test.setTimeout(20 * 60_000);
  const result = await buildWithToken(["--build-arg", `SENTRY_RELEASE=${RELEASE}`, "--tag", UPLOADED_IMAGE]);
  expect(result.status, result.stderr.slice(-3000)).toBe(0);
  const listing = await listApp(UPLOADED_IMAGE);
  expect(
    listing.files.filter((file) => file.endsWith(".map") && !file.startsWith("/app/build/server/")),
  ).toEqual([]);
  // The served files, as the image holds them.
  const container = (await docker(["create", "--label", TEST_LABEL, UPLOADED_IMAGE])).trim();
  try {
    await docker(["cp", `${container}:/app/build/client`, path.join(dir, "client")]);
  } finally {
    await docker(["rm", container]);
  }
  expect(uploadProblems(servedFiles(path.join(dir, "client")), standIn.record, RELEASE)).toEqual([]);
  expect(standIn.record.releases.map((release) => release.version)).toContain(RELEASE);
});
