import { readFileSync } from "node:fs";
import path from "node:path";
import { envSchema } from "../../app/env.server";
import { parseStartScript } from "../../test-support/app-server";
import { FRAMEWORK_NAME } from "../../test-support/framework";
import type { Recorder } from "../../test-support/sentry-recorder";
import { routeCountBuilds } from "./builds";
import type { TargetId } from "./report";
import {
  HAS_DOCUMENTED_TARGET,
  ROOT,
  startAppServer,
  startBaseline,
  startDocumented,
  type BenchServer,
} from "./servers";

/**
 * The six servers every bench script compares, started one way for all of
 * them (npm run bench: run, goals, profile).
 */

/** The app's production default of SENTRY_TRACES_SAMPLE_RATE (target D). */
export const DEFAULT_SAMPLE_RATE = envSchema.parse({}).SENTRY_TRACES_SAMPLE_RATE;
/** Its default SENTRY_TRACES_PER_SECOND: at saturation D traces at most this many requests a second. */
export const DEFAULT_TRACES_PER_SECOND = envSchema.parse({}).SENTRY_TRACES_PER_SECOND;

export const TARGET_NAMES: Record<TargetId, string> = {
  A: `A bare ${FRAMEWORK_NAME}`,
  B: "B Sentry off",
  C: "C Sentry 100 %",
  D: `D Sentry ${DEFAULT_SAMPLE_RATE * 100} % (default)`,
  E: "E documented @sentry/remix 100 %",
  F: "F Sentry on at rate 0 (the floor)",
};

/** The targets this tree has: E only where its setup exists (Remix 2: servers.ts, HAS_DOCUMENTED_TARGET). */
export const AVAILABLE_TARGETS = (Object.keys(TARGET_NAMES) as TargetId[]).filter(
  (id) => id !== "E" || HAS_DOCUMENTED_TARGET,
);

/** One recorder, one project per Sentry target, so that envelopes are counted per server. */
export const SENTRY_PROJECTS: Partial<Record<TargetId, string>> = { C: "3", D: "4", F: "5", E: "6" };

export interface TargetStart {
  routes: number;
  /** Where C, D and E report. */
  recorder?: Recorder;
  /** Further `node` flags (the profile's `--cpu-prof`). */
  nodeOptions?: string;
  /** SENTRY_TRACES_SAMPLE_RATE of C, D or F instead of their own (1, the default, 0). */
  sampleRate?: string;
  /** Further environment of B, C, D or F (the soak's SENTRY_TRACES_PER_SECOND). */
  env?: Record<string, string>;
}

/** NODE_OPTIONS of the app's real start script (package.json `start`), to which `nodeOptions` are added. */
function appNodeOptions(extra: string): string {
  const scripts = (
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: { start: string };
    }
  ).scripts;
  return `${parseStartScript(scripts.start).env.NODE_OPTIONS ?? ""} ${extra}`;
}

export function startTarget(id: TargetId, options: TargetStart): Promise<BenchServer> {
  const builds = routeCountBuilds(options.routes);
  const { recorder, nodeOptions, sampleRate } = options;
  const dsn = () => {
    if (!recorder) throw new Error(`target ${id} reports to Sentry: a recorder is needed`);
    return recorder.dsn(SENTRY_PROJECTS[id]);
  };
  switch (id) {
    case "A":
      return startBaseline({ build: builds.baselineDir, nodeOptions });
    case "E":
      return startDocumented({ build: builds.documentedDir, env: { SENTRY_DSN: dsn() }, nodeOptions });
    default: {
      const env: Record<string, string> = {};
      if (nodeOptions) env.NODE_OPTIONS = appNodeOptions(nodeOptions);
      if (id !== "B") Object.assign(env, { SENTRY_DSN: dsn(), SENTRY_ENVIRONMENT: "bench" });
      // D leaves the rate unset: the app's production default. F traces nothing: what the SDK costs on.
      const rate = sampleRate ?? { C: "1", F: "0" }[id as string];
      if (id !== "B" && rate !== undefined) env.SENTRY_TRACES_SAMPLE_RATE = rate;
      return startAppServer(id, { build: builds.appDir, env: { ...env, ...options.env } });
    }
  }
}
