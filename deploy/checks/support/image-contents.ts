/**
 * What is inside the app image and what of it is ours: the listing of /app
 * (read by node in a throw-away container, no network) and the image's size
 * against its base's.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { docker, TEST_LABEL } from "./docker";
import { imageBytes, REPO_ROOT } from "./app-image";

export interface AppListing {
  /** Entries of /app. */
  top: string[];
  /** Every file under /app, absolute. */
  files: string[];
  /** Whether the server bundle has the e2e build's fixture routes (it must not). */
  serverHasFixtureRoutes: boolean;
  /** Bytes under /app/node_modules and /app/build. */
  nodeModulesBytes: number;
  buildBytes: number;
}

const LIST_APP = `
const fs = require("fs"), path = require("path");
const files = []; const bytes = {};
const walk = (dir, top) => { for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
  const file = path.join(dir, entry.name);
  if (entry.isDirectory()) walk(file, top);
  else { files.push(file); if (entry.isFile()) bytes[top] = (bytes[top] || 0) + fs.statSync(file).size; }
} };
for (const top of fs.readdirSync("/app")) {
  const file = path.join("/app", top);
  if (fs.statSync(file).isDirectory()) walk(file, top); else files.push(file);
}
const serverHasFixtureRoutes = fs.readFileSync("/app/build/server/index.js", "utf8").includes("e2e/fixtures/");
console.log(JSON.stringify({ top: fs.readdirSync("/app").sort(), files, serverHasFixtureRoutes,
  nodeModulesBytes: bytes.node_modules || 0, buildBytes: bytes.build || 0 }));
`;

export async function listApp(image: string): Promise<AppListing> {
  const out = await docker([
    "run",
    "--rm",
    "--label",
    TEST_LABEL,
    "--network",
    "none",
    "--entrypoint",
    "node",
    image,
    "-e",
    LIST_APP,
  ]);
  return JSON.parse(out) as AppListing;
}

interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
}

/** package-lock.json's packages: the paths of dev-only ones and of required production ones. */
export function lockedPackages(): { dev: string[]; production: string[] } {
  const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const entries = Object.entries(lock.packages).filter(([key]) => key.startsWith("node_modules/"));
  return {
    dev: entries.filter(([, entry]) => entry.dev || entry.devOptional).map(([key]) => key),
    // Optional ones (other platforms' binaries) may rightly be absent.
    production: entries
      .filter(([, entry]) => !entry.dev && !entry.devOptional && !entry.optional)
      .map(([key]) => key),
  };
}

/**
 * Total size of the image and the part its own layers add to the base. The
 * base's size is unknown (undefined) when Docker's image store lacks it: an
 * image BuildKit pulled for the build need not be listed there.
 */
export async function imageShare(image: string, base: string) {
  const total = await imageBytes(image);
  const baseBytes = await imageBytes(base).catch(() => undefined);
  return { total, base: baseBytes, app: baseBytes === undefined ? undefined : total - baseBytes };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
