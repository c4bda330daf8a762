/**
 * For a spec that compares a server tracing every request with one tracing none (what an untraced
 * request gets, decision 0091): both started for the spec file, reporting to the worker's
 * recorder, stopped after it. The file declares them: `test.use({ serverStarts: 2 })`.
 */
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import { reportingTo, test } from "../../test-support/test-with-app";

export const TRACE_MODES = ["traced", "untraced"] as const;
export type TraceMode = (typeof TRACE_MODES)[number];

/** Filled once the file's `beforeAll` ran. */
export function tracedAndUntracedApps(): Partial<Record<TraceMode, AppServer>> {
  const servers: Partial<Record<TraceMode, AppServer>> = {};
  test.beforeAll(async ({ recorder }) => {
    test.setTimeout(SERVER_HOOK_LIMIT_MS);
    const start = (rate: string) => startApp({ env: reportingTo(recorder, rate) });
    [servers.traced, servers.untraced] = await Promise.all([start("1"), start("0")]);
  });
  test.afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server?.stop()));
  });
  return servers;
}
