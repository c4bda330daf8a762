import { spawn, type ChildProcess } from "node:child_process";

/**
 * Kills the process group of `pid` if this (test) process dies without
 * stopping it: a detached watchdog that polls for its parent. For servers that
 * are not Node (nginx, Postgres, Redis), which `exit-with-parent.mjs` cannot reach.
 */
export function watchdog(pid: number): ChildProcess {
  const script = `const [parent, group] = process.argv.slice(1).map(Number);
const alive = (p) => { try { process.kill(p, 0); return true; } catch { return false; } };
setInterval(() => {
  if (!alive(group)) process.exit(0);
  if (!alive(parent)) { try { process.kill(-group, "SIGKILL"); } catch {} process.exit(0); }
}, 250);`;
  const child = spawn(process.execPath, ["-e", script, String(process.pid), String(pid)], {
    detached: true,
    stdio: "ignore",
  });
  child.unref();
  return child;
}
