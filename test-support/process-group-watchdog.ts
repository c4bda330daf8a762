import { spawn, type ChildProcess } from "node:child_process";

/**
 * Kills the process group of `pid` if this (test) process dies without
 * stopping it: a detached watchdog that polls for its parent. For servers that
 * are not Node (nginx, Postgres, Redis), which `exit-with-parent.mjs` cannot reach.
 * `folder`, if given, is removed then too (the server's data and sockets).
 */
export function watchdog(pid: number, folder?: string): ChildProcess {
  const script = `const [parent, group, folder] = process.argv.slice(1);
const alive = (p) => { try { process.kill(Number(p), 0); return true; } catch { return false; } };
const timer = setInterval(() => {
  if (!alive(group)) process.exit(0);
  if (alive(parent)) return;
  clearInterval(timer);
  try { process.kill(-Number(group), "SIGKILL"); } catch {}
  // Once the killed server has let go of its files.
  setTimeout(() => { if (folder) require("node:fs").rmSync(folder, { recursive: true, force: true, maxRetries: 10 }); }, 1000);
}, 250);`;
  const child = spawn(
    process.execPath,
    ["-e", script, String(process.pid), String(pid), ...(folder ? [folder] : [])],
    {
      detached: true,
      stdio: "ignore",
    },
  );
  child.unref();
  return child;
}
