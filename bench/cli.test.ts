/** Every command `npm run bench -- help` lists answers `--help` with its own usage and measures nothing. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const bench = (...args: string[]) =>
  promisify(execFile)(path.join(ROOT, "node_modules/.bin/tsx"), ["bench/cli.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });

describe("npm run bench", () => {
  it("answers --help for each command it lists, with that command's usage", async () => {
    const { stdout } = await bench("help");
    const commands = [...stdout.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]!);
    expect(commands).toEqual(expect.arrayContaining(["run", "trace-cost", "compare-goals", "build"]));
    const answers = await Promise.all(commands.map((command) => bench(command, "--help")));
    commands.forEach((command, index) => {
      // The run's usage is the entry's own: `npm run bench -- [options]`.
      const name = command === "run" ? "\\[options\\]" : command;
      expect(answers[index]!.stdout, command).toMatch(new RegExp(`^usage: npm run bench -- ${name}(\\s|$)`));
    });
  }, 180_000);
});
