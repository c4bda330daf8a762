/**
 * Which packages `@sentry/node`'s runtime channel injection rewrote, read from the SDK's own record
 * in a fresh Node process: `before` runs first, then the SDK starts with the injection on (as the
 * app starts it), then `after` loads what it loads. For the guards of the packages a boot loads
 * before Sentry (docs/decisions/0098).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

/** A child that loads the SDK takes a second or more; the limit leaves a slow machine room. */
export const SDK_PROBE_LIMIT_MS = 60_000;

export async function packagesRewrittenBySdk(
  root: string,
  { before, after }: { before: string; after: string },
): Promise<string[]> {
  const script = `
    ${before}
    const Sentry = await import("@sentry/node");
    Sentry.init({ dsn: "http://public@127.0.0.1:9/1", tracesSampleRate: 0, enableRuntimeChannelInjection: true });
    ${after}
    console.log(JSON.stringify([...new Set(globalThis.__SENTRY_ORCHESTRION__?.runtime ?? [])].sort()));`;
  // Not spawnSync: the test's worker keeps its event loop while the child runs.
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", script],
    {
      cwd: root,
      encoding: "utf8",
      timeout: SDK_PROBE_LIMIT_MS,
      killSignal: "SIGKILL",
    },
  );
  if (stderr) throw new Error(`the probe wrote to stderr: ${stderr}`);
  return JSON.parse(stdout) as string[];
}
