/**
 * Which processes are the scaffold's test runs', from /proc (Linux): what the reserved core's
 * holder (./reserved-core.ts) moves off its core while it holds it, and back after.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Every descendant of `roots`, from /proc: each process's parent is the fourth field of its stat. */
export function descendants(...roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  const found = new Set<number>();
  for (let queue = [...roots]; queue.length > 0;) {
    const next = (children.get(queue.shift()!) ?? []).filter((pid) => !found.has(pid));
    for (const pid of next) found.add(pid);
    queue.push(...next);
  }
  return [...found];
}

const environOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1");
  } catch {
    return undefined; // Gone while we looked, or not ours to read.
  }
};

/**
 * Of `pids`, those whose TMPDIR is this process's, or that show no environment at all (Chromium's
 * zygotes blank theirs): the runs that share the reserved core's claim (./reserved-core.ts). A run
 * with another TMPDIR has a claim of its own, and what it starts is left alone.
 */
export function sharingTmpdir(pids: number[]): number[] {
  return [...new Set(pids)].filter((pid) => {
    const environ = environOf(pid);
    if (environ === undefined) return false;
    if (environ.replaceAll("\0", "") === "") return true;
    return /(?:^|\0)TMPDIR=([^\0]*)/.exec(environ)?.[1] === process.env.TMPDIR;
  });
}

/**
 * The processes of the scaffold's test runs that share this TMPDIR, and all they started: each carries
 * SCAFFOLD_TEST_RUN (scripts/run-tests.mjs), or SCAFFOLD_TEST_TREE, which the proofs of a copied
 * tree (the upgraded one, day one's) set on all they start; and each run's runner, which carries
 * neither, so that the steps it starts next inherit where it runs.
 */
export function testRunProcesses(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    const environ = environOf(Number(entry));
    if (environ === undefined || !/(?:^|\0)SCAFFOLD_TEST_(RUN|TREE)=/.test(environ)) {
      let command = "";
      try {
        command = readFileSync(`/proc/${entry}/cmdline`, "latin1");
      } catch {
        continue;
      }
      if (!command.includes("scripts/run-tests.mjs")) continue;
    }
    found.push(Number(entry));
  }
  const roots = sharingTmpdir(found);
  return sharingTmpdir([...roots, ...descendants(...roots)]);
}
