/**
 * Generated requests against the production server: whatever a client sends
 * (method, path, query, Origin, Host, X-Forwarded-Host, Content-Type, Cookie,
 * body), the answer is never a 5xx, nothing reaches the error log or Sentry,
 * and every line the server writes is JSON. The routes are
 * real: pages with loaders, a form route (parseForm, redirectTo), an action
 * that reads the body itself, single fetch, the health check, static files,
 * unknown paths. Bounded: FUZZ_RUNS requests (default 300), one at a time,
 * on 127.0.0.1. The seed is printed first; `FUZZ_SEED=<seed>` replays a run
 * (and fast-check prints the shrunk request that failed).
 */
import fc from "fast-check";
import { expect, fromNowOn, isErrorEvent, settledItems, test } from "../support/spec-helpers";
import { failureLines, linesOf, send } from "../support/refusals";
import { generatedRequest } from "../support/request-arbitraries";

const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const numRuns = Number(process.env.FUZZ_RUNS ?? 300);

test(`${numRuns} generated requests: no 5xx, no error line, no Sentry event`, async ({ app, recorder }) => {
  test.setTimeout(300_000);
  console.log(`request fuzz: FUZZ_SEED=${seed} FUZZ_RUNS=${numRuns}`);
  const since = fromNowOn(recorder);
  const linesBefore = app.logLines().length;
  const statuses = new Map<number, number>();

  await fc.assert(
    fc.asyncProperty(generatedRequest, async (generated) => {
      const response = await send(app, generated);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status, `FUZZ_SEED=${seed}`).toBeLessThan(500);
      expect(failureLines(linesOf(app, response.requestId)), `FUZZ_SEED=${seed}`).toEqual([]);
    }),
    { seed, numRuns, endOnFailure: false },
  );

  console.log(`request fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  expect(failureLines(app.logLines().slice(linesBefore)), `FUZZ_SEED=${seed}`).toEqual([]);
  expect(await settledItems(recorder, since(isErrorEvent), 0), `FUZZ_SEED=${seed}`).toEqual([]);
  expect(app.process.exitCode).toBeNull();
  // Every line the server wrote, on stdout and stderr, is one JSON record.
  const notJson = app
    .output()
    .split("\n")
    .filter((line) => line !== "" && !isJson(line));
  expect(notJson, `FUZZ_SEED=${seed}`).toEqual([]);
});

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
