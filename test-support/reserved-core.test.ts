import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canReserveCore } from "./reserved-core";

const MODULE = path.resolve(import.meta.dirname, "reserved-core.ts");
const cores = os.cpus().length;
const ALL = `0-${cores - 1}`;
const RESERVED = String(cores - 1);
const OTHERS = cores > 2 ? `0-${cores - 2}` : "0";

/** Where `pid` may run, as /proc says it: "0-1", "1". */
const coresOf = (pid: number) =>
  /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1];

/** The first line `child` prints that matches `pattern`. */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk;
      const line = out.split("\n").find((candidate) => pattern.test(candidate));
      if (line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code} before ${pattern}: ${out}`)));
  });
}

// A claim of its own (the claim and the runs it keeps off are those of one TMPDIR), so that it
// neither waits for a real test run's cost specs nor moves that run's processes.
const tmp = mkdtempSync(path.join(os.tmpdir(), "reserved-core-"));
const inRun = { ...process.env, TMPDIR: tmp, SCAFFOLD_TEST_RUN: "another-run/test:e2e" };
/** What a copied tree's proof starts before its own test run marks its steps. */
const { SCAFFOLD_TEST_RUN: _, ...unmarked } = process.env;
const inTree = { ...unmarked, TMPDIR: tmp, SCAFFOLD_TEST_TREE: "test:upgrade" };
const started: ChildProcess[] = [];
const orphans: number[] = [];
/**
 * An idle process with `env`, not a child of this worker (the holder keeps its own run's processes
 * off the core whatever their marks): under the machine's init once the shell exits, as another
 * run's processes are. It starts a child with no environment at all, as Chromium's zygotes show
 * none. A minute at most each: they are outside this run's marks, which its clean-up would not stop.
 */
async function orphan(env: NodeJS.ProcessEnv): Promise<[number, number]> {
  const idle = "setTimeout(() => {}, 60_000)";
  const script = `require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(idle)}], { env: {}, stdio: "ignore" }); ${idle}`;
  const pid = Number(
    execFileSync("sh", ["-c", '"$0" -e "$1" >/dev/null 2>&1 & echo $!', process.execPath, script], {
      env,
      encoding: "utf8",
    }),
  );
  let child = 0;
  while (!child) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    child = Number(readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim());
  }
  orphans.push(pid, child);
  return [pid, child];
}
afterAll(() => {
  for (const child of started) child.kill("SIGKILL");
  for (const pid of orphans) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Its minute was up.
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!canReserveCore())("reserveCore", () => {
  it("from a worker pinned off it, keeps another test run of its claim, a copied tree's proof and a worker that starts later off the core while it holds it, and a run of another claim where it was", async () => {
    const [other, otherChild] = await orphan(inRun);
    const [tree] = await orphan(inTree);
    const [stranger, strangerChild] = await orphan({ ...inRun, TMPDIR: os.tmpdir() });
    const strangers = [coresOf(stranger), coresOf(strangerChild)];
    // Started where another run's holder had pinned its run: on the other cores. It still sees the
    // machine's, and takes the last.
    const holder = spawn(
      "taskset",
      [
        "-c",
        OTHERS,
        process.execPath,
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { canReserveCore, reserveCore } = await import(${JSON.stringify(MODULE)});
         if (!canReserveCore()) throw new Error("no core to reserve");
         const release = await reserveCore();
         console.log("reserved");
         process.stdin.once("data", () => { release(); console.log("released"); process.exit(0); });`,
      ],
      { env: { ...process.env, TMPDIR: tmp }, stdio: ["pipe", "pipe", "inherit"] },
    );
    started.push(holder);
    await lineOf(holder, /^reserved$/);
    expect(coresOf(holder.pid!)).toBe(RESERVED);
    expect([coresOf(other), coresOf(otherChild), coresOf(tree)]).toEqual([OTHERS, OTHERS, OTHERS]);
    expect([coresOf(stranger), coresOf(strangerChild)]).toEqual(strangers);
    // A worker of any run that starts while the core is held keeps off it.
    const late = execFileSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { keepOffReservedCore } = await import(${JSON.stringify(MODULE)});
         keepOffReservedCore();
         console.log(/Cpus_allowed_list:\\s*(\\S+)/.exec((await import("node:fs")).readFileSync("/proc/self/status", "utf8"))[1]);`,
      ],
      { env: { ...unmarked, TMPDIR: tmp }, encoding: "utf8" },
    );
    expect(late.trim()).toBe(OTHERS);

    holder.stdin!.write("release\n");
    await lineOf(holder, /^released$/);
    expect([coresOf(other), coresOf(otherChild), coresOf(tree)]).toEqual([ALL, ALL, ALL]);
  });
});
