/**
 * `npm run dev` writes colours where Node would colour stdout, and nowhere
 * else: a terminal gets them unless NO_COLOR; a pipe gets them only with
 * FORCE_COLOR. Each case starts the dev server (e2e/support/dev-server.ts);
 * the uncoloured pipe is e2e/toolchain/dev-server.spec.ts's own.
 */
import { stripVTControlCharacters } from "node:util";
import { expect, test } from "../support/spec-helpers";
import { SERVER_HOOK_LIMIT_MS, type AppServer } from "../../test-support/app-server";
import { startDevServer } from "../support/dev-server";

test.use({ serverStarts: 4 }); // a dev server per case

const ESC = "\u001b";
// A terminal that can show colours, since the test's own environment does not pass TERM on.
const COLOUR_TERMINAL = { TERM: "xterm-256color" };

/** What the dev server wrote until it listened, once it stopped. */
async function outputOf(env: Record<string, string>, options: { terminal?: boolean } = {}) {
  let dev: AppServer | undefined;
  try {
    dev = await startDevServer(env, options);
    return dev.output();
  } finally {
    await dev?.stop("SIGTERM");
  }
}

/** The boot's `starting` record's header line, as written. */
function startingLine(output: string): string {
  const line = output.split("\n").find((text) => /INFO: starting/.test(stripVTControlCharacters(text)));
  expect(line, output).toBeDefined();
  return line!;
}

test.describe.configure({ timeout: 2 * SERVER_HOOK_LIMIT_MS });

test("a pipe under CI and FORCE_COLOR=0, where Vite's colour library alone would colour: none", async () => {
  const output = await outputOf({ CI: "true", FORCE_COLOR: "0" });
  expect(output).toContain("Local:");
  expect(output).not.toContain(ESC);
});

test("a pipe with FORCE_COLOR=1: colour, the same records once the colours are taken off", async () => {
  const output = await outputOf({ FORCE_COLOR: "1" });
  const starting = startingLine(output);
  expect(starting).toContain(ESC);
  expect(stripVTControlCharacters(starting)).toMatch(/^\[[^\]]+\] INFO: starting$/);
});

test("a terminal: colour", async () => {
  const starting = startingLine(await outputOf(COLOUR_TERMINAL, { terminal: true }));
  expect(starting).toContain(ESC);
  expect(stripVTControlCharacters(starting)).toMatch(/^\[[^\]]+\] INFO: starting\r?$/);
});

test("a terminal with NO_COLOR=1: none", async () => {
  const output = await outputOf({ ...COLOUR_TERMINAL, NO_COLOR: "1" }, { terminal: true });
  expect(startingLine(output)).toMatch(/^\[[^\]]+\] INFO: starting\r?$/);
  expect(output).not.toContain(ESC);
});
