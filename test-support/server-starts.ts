/**
 * How many servers each spec file starts, counted where they start (the app through its start
 * script, the dev server, Postgres and Redis), so that a file starting more than it declares
 * fails (test-with-app.ts's `serverStarts`). A start costs a second or more of CPU on a shared
 * 2-core machine and, in a `beforeEach` or a loop, multiplies unseen: the declaration makes each
 * one a choice a reviewer sees (docs/testing.md, "Where the time goes").
 */
import { test } from "@playwright/test";

/** Starts per spec file in this worker process. */
const starts = new Map<string, number>();

/** The spec file of the running test or hook, or undefined outside Playwright (the benchmark). */
function runningSpec(): string | undefined {
  try {
    return test.info().file;
  } catch {
    return undefined;
  }
}

/** Counts a server start against the running spec file. */
export function countServerStart(): void {
  const file = runningSpec();
  if (file) starts.set(file, (starts.get(file) ?? 0) + 1);
}

/** The servers `file` started in this worker so far. */
export function serverStartsOf(file: string): number {
  return starts.get(file) ?? 0;
}
