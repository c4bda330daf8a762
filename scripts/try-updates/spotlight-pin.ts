/**
 * Whether tools/spotlight/ still needs its `hono` pin (tools/spotlight/README.md): Spotlight at the
 * version the folder pins, and at the newest when that differs, each installed without the pin as
 * npm resolves it today into a folder of its own, its sidecar started as `npm run dev -- --spotlight`
 * starts it. Its page and `/health` answering 200 is an update to take: the pin can go.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSidecar } from "../../tools/spotlight/start";
import { installedIn, readJson, run } from "./scratch";

const TOOL = path.resolve(import.meta.dirname, "../../tools/spotlight");
export const SPOTLIGHT = "@spotlightjs/spotlight";
/** 142 packages from the registry: a minute or two; npm offline or looping would never end. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

interface Manifest {
  dependencies: Record<string, string>;
  overrides?: Record<string, string>;
}

/** Spotlight without the pin: what it answers, or why it could not be asked. */
export interface Unpinned {
  spotlight: string;
  hono?: string;
  answers: { page: number; health: number } | string;
}

/** tools/spotlight/package.json with Spotlight at `version` and no `hono` override. */
export function withoutPin(manifest: Manifest, version: string): Manifest {
  const { hono: _pin, ...overrides } = manifest.overrides ?? {};
  const { overrides: _all, ...rest } = manifest;
  return {
    ...rest,
    dependencies: { ...manifest.dependencies, [SPOTLIGHT]: version },
    ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
  };
}

/** One row of the try's table: the versions tried, and what the team does next. */
export function pinVerdict(
  pinned: string,
  tried: Unpinned[],
): { moved: string; result: string; ok: boolean } {
  const moved = tried
    .map(({ spotlight, hono }) => `${SPOTLIGHT} ${spotlight}${hono ? ` with hono ${hono}` : ""}`)
    .join(", ");
  const answered = (entry: Unpinned) =>
    typeof entry.answers === "string"
      ? entry.answers
      : `page ${entry.answers.page}, /health ${entry.answers.health}`;
  const works = tried.find(
    ({ answers }) => typeof answers !== "string" && answers.page === 200 && answers.health === 200,
  );
  if (works) {
    const move = works.spotlight === pinned ? "" : `move ${SPOTLIGHT} to ${works.spotlight} and `;
    const result = `update to take: ${works.spotlight} answers without the hono pin: ${move}remove its override from tools/spotlight/package.json, then npm install there`;
    return { moved, result, ok: true };
  }
  const failed = tried.find(({ answers }) => typeof answers === "string");
  if (failed) return { moved, result: `${failed.spotlight} without the pin: ${answered(failed)}`, ok: false };
  const still = tried.map((entry) => `${entry.spotlight}: ${answered(entry)}`).join("; ");
  return { moved, result: `the hono pin is still needed (${still})`, ok: true };
}

/** Spotlight `version` installed without the pin in a folder of its own, then asked. */
async function tryUnpinned(version: string, log: string): Promise<Unpinned> {
  const folder = mkdtempSync(path.join(tmpdir(), "try-updates-spotlight-"));
  try {
    for (const file of readdirSync(TOOL).filter((name) => name.endsWith(".ts") && !name.includes(".test.")))
      copyFileSync(path.join(TOOL, file), path.join(folder, file));
    const manifest = withoutPin(readJson<Manifest>(path.join(TOOL, "package.json")), version);
    writeFileSync(path.join(folder, "package.json"), JSON.stringify(manifest, null, 2));
    const install = await run("npm", ["install", "--no-audit", "--no-fund"], folder, log, INSTALL_TIMEOUT_MS);
    if (install !== 0)
      return {
        spotlight: version,
        answers: `npm install ${install === "timeout" ? "did not finish" : `exit ${install}`}`,
      };
    const hono = installedIn(folder)("hono");
    const sidecar = await startSidecar({ port: 0, folder, cwd: folder }).catch((error: Error) => error);
    if (sidecar instanceof Error) return { spotlight: version, hono, answers: sidecar.message };
    try {
      const origin = `http://127.0.0.1:${sidecar.port}`;
      const [page, health] = await Promise.all([fetch(`${origin}/`), fetch(`${origin}/health`)]);
      await Promise.all([page.body?.cancel(), health.body?.cancel()]);
      return { spotlight: version, hono, answers: { page: page.status, health: health.status } };
    } finally {
      await sidecar.stop();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The pinned Spotlight and the `newest` (from `npm view`), each tried without the pin. */
export async function tryWithoutPin(newest: string, log: string) {
  const pinned = readJson<Manifest>(path.join(TOOL, "package.json")).dependencies[SPOTLIGHT]!;
  const tried = [await tryUnpinned(pinned, log)];
  if (newest !== pinned) tried.push(await tryUnpinned(newest, log));
  return pinVerdict(pinned, tried);
}
