/** Every command `npm run bench -- help` lists answers `--help` with its own usage (bench/usages.ts), loading nothing. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const bench = (...args: string[]) =>
  // One process each (no tsx CLI in between), so that a time-out kills all it started.
  promisify(execFile)(process.execPath, ["--import", "tsx", "bench/cli.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });

describe("npm run bench", () => {
  it("answers --help for each command it lists, with that command's usage", async () => {
    const { stdout } = await bench("help");
    const commands = [...stdout.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]!);
    expect(commands).toEqual(expect.arrayContaining(["goals", "run", "profile", "build"]));
    // One at a time: a dozen start-ups at once would crowd the other test files.
    for (const command of commands) {
      const { stdout: usage } = await bench(command, "--help");
      // The run's usage is the entry's own: `npm run bench -- [options]`.
      const name = command === "run" ? "\\[options\\]" : command;
      expect(usage, command).toMatch(new RegExp(`^usage: npm run bench -- ${name}(\\s|$)`));
    }
  }, 180_000);
});
