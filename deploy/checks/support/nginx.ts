/**
 * Debian's nginx (/usr/sbin/nginx) as the balancer in front of several app
 * instances, with a configuration of the test's own in a temporary folder
 * (pid, logs, temp paths all inside it), listening on 127.0.0.1 only.
 *
 * The upstream is round-robin with nginx's passive health only (OSS nginx
 * has no active health checks): a refused connection is retried on the next
 * instance (nothing was sent, so this is safe for POSTs too) and marks that
 * instance down for `fail_timeout`. What readiness adds is `setUpstreams`:
 * whoever watches `/readyz` rewrites the list and reloads, as Kubernetes'
 * endpoints controller does for a Service (see rotation.ts).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../../test-support/free-port";
import { watchdog } from "../../../test-support/process-group-watchdog";

export const NGINX = "/usr/sbin/nginx";

export interface Upstream {
  port: number;
  /** Out of rotation: nginx sends it nothing (`down`). */
  down?: boolean;
}

export interface Nginx {
  readonly url: string;
  /** Rewrites the upstream list and reloads; resolves once only new workers (the new list) accept. */
  setUpstreams(upstreams: Upstream[]): Promise<void>;
  /** nginx's error log so far (notices included). */
  errorLog(): string;
  /** Stops nginx and its watchdog, whatever state they are in. */
  stop(): Promise<void>;
}

function config(dir: string, port: number, upstreams: Upstream[]): string {
  const servers = upstreams
    .map((u) => `    server 127.0.0.1:${u.port} max_fails=1 fail_timeout=2s${u.down ? " down" : ""};`)
    .join("\n");
  return `# Written by deploy/checks/support/nginx.ts; everything lives in ${dir}.
${process.getuid?.() === 0 ? "user root;" : ""}
daemon off;
master_process on;
worker_processes 1;
pid ${dir}/nginx.pid;
lock_file ${dir}/nginx.lock;
error_log ${dir}/error.log notice;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream app {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    # A connection per client request. A reload (how the readiness watcher takes
    # an instance out) closes the old workers' idle keep-alive connections, and
    # a request sent on one at that moment fails at the client: browsers retry
    # that, the test's load generator does not, and it is nginx's reload, not
    # the app's restart. (ingress-nginx changes upstreams without reloads.)
    keepalive_timeout 0;
    location / {
      proxy_pass http://app;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # nginx's default, spelled out: retry the next instance on a connection
      # error or time-out, but never re-send a POST that reached an instance.
      proxy_next_upstream error timeout;
      # Test-only: which instance served each response.
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** The master's children (its worker processes), from /proc. */
function workers(pid: number): Set<number> {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return new Set(text ? text.split(/\s+/).map(Number) : []);
  } catch {
    return new Set();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(test: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`nginx: ${what} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

export async function startNginx(upstreams: Upstream[]): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), "nginx-check-"));
  const port = await freePort();
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, config(dir, port, upstreams));
  // Detached: nginx and its workers form their own process group, killed as one.
  const master = spawn(NGINX, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", conf], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  master.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => master.once("exit", () => resolve()));
  const guard = watchdog(master.pid!);
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, "error.log"), "utf8") + stderr;
    } catch {
      return stderr;
    }
  };
  const stop = async () => {
    try {
      process.kill(-master.pid!, "SIGQUIT"); // graceful: workers finish what they hold
      await Promise.race([exited, sleep(5_000)]);
    } catch {
      // already gone
    } finally {
      try {
        process.kill(-master.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      guard.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    await until(async () => master.exitCode === null && (await accepts(port)), 15_000, "listening");
  } catch (error) {
    const log = errorLog();
    await stop();
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    errorLog,
    stop,
    async setUpstreams(next) {
      writeFileSync(conf, config(dir, port, next));
      const before = workers(master.pid!);
      process.kill(master.pid!, "SIGHUP");
      // Reloaded once a new worker runs (it read the new list) and every old one
      // has exited: until an old worker handles its SIGQUIT, it still accepts
      // connections and sends them by the old list.
      await until(
        () => {
          const now = [...workers(master.pid!)];
          return now.length > 0 && now.every((pid) => !before.has(pid));
        },
        30_000,
        "reload did not replace the old workers",
      );
    },
  };
}
