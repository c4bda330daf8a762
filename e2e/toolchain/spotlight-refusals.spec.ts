/**
 * What `npm run dev` refuses about Spotlight before it starts one (docs/configuration.md): each
 * refusal is one line and exit code 1. Nothing of Spotlight needs to be installed for it.
 */
import path from "node:path";
import { freePort } from "../../test-support/free-port";
import { runToExit } from "../../test-support/run-to-exit";
import { startRecorder } from "../../test-support/sentry-recorder";
import { devCommand, devEnv } from "../support/dev-server";
import { expect, test } from "../support/spec-helpers";

const root = path.resolve(import.meta.dirname, "../..");

test("a bad SENTRY_SPOTLIGHT stops it with one line and exit code 1, before Vite starts", async () => {
  const { command, args } = devCommand();
  const result = await runToExit(command, args, {
    cwd: root,
    env: devEnv({ SENTRY_SPOTLIGHT: "localhost:8969" }),
  });
  expect([result.status, result.stdout]).toEqual([1, ""]);
  expect(result.stderr).toBe(
    "Invalid environment: SENTRY_SPOTLIGHT must be on, off or the URL of Spotlight's sidecar such as http://localhost:8969/stream\n",
  );
});

test("a port taken by something else stops it with one line and exit code 1", async () => {
  const recorder = await startRecorder();
  try {
    const taken = new URL(recorder.dsn()).origin;
    const { command, args } = devCommand();
    const result = await runToExit(command, [...args, "--spotlight"], {
      cwd: root,
      env: devEnv({ PORT: String(await freePort()), SENTRY_SPOTLIGHT: `${taken}/stream` }),
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `npm run dev: ${taken} is not Spotlight: stop what listens there, or set SENTRY_SPOTLIGHT to a free port's URL\n`,
    );
  } finally {
    await recorder.close();
  }
});
