/**
 * `npx tsx .ci/node-standin/build.ts [tag]`: a local stand-in for the official
 * `node:24-bookworm-slim` image, for our CI machine, which reaches the npm
 * registry and a Debian mirror but no image registry (.ci/README.md). `.ci/run`
 * runs it only when `docker pull node:24-bookworm-slim` finds no registry, and
 * then gives the deploy checks `NODE_IMAGE=<tag>`. Nothing in the product
 * knows of it.
 *
 * Made from the same parts as the official image: a minimal Debian bookworm
 * root (debootstrap, from this machine's apt mirror, slimmed like
 * debian:bookworm-slim), Node 24's official binary (npm package
 * node-linux-<arch>) and npm, laid out like the official image:
 * /usr/local/bin/node, /usr/local/lib/node_modules/npm, user `node` 1000:1000
 * with home /home/node, docker-entrypoint.sh, CMD ["node"].
 *
 * The registry is reached through a TLS proxy this machine trusts: its CA
 * bundle (NODE_EXTRA_CA_CERTS) goes into the stand-in, with
 * NODE_EXTRA_CA_CERTS set there, so that `npm ci` in the Dockerfile works on
 * it. That is the stand-in's business only: the Dockerfile knows nothing of it.
 *
 * Does nothing when the tag exists (`docker rmi` it to rebuild). Every
 * command is bounded in time, and killed with its process group when this
 * process ends, by a signal too.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { machineAptSources, mirrorFor } from "./apt-mirror";

const STANDIN_TAG = "local/node-standin:24-bookworm-slim";
const NODE_MAJOR = 24;
const SUITE = "bookworm";
const CA_IN_IMAGE = "/usr/local/share/node-standin/extra-ca.pem";

// The official image's entrypoint: a first argument that is a flag or not a command runs node.
const ENTRYPOINT_SCRIPT = `#!/bin/sh
set -e
if [ "\${1#-}" != "\${1}" ] || [ -z "$(command -v "\${1}")" ] || { [ -f "\${1}" ] && ! [ -x "\${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
`;

const live = new Set<ChildProcess>();
function killGroup(child: ChildProcess) {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** The build's temporary directory, removed however the process ends. */
let currentWork: string | undefined;

process.once("exit", () => {
  for (const child of live) killGroup(child);
  if (currentWork) removeWork(currentWork);
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    console.error(`stand-in: ${signal}, stopping`);
    process.exit(1);
  });
}

interface Options {
  timeoutMs: number;
  cwd?: string;
  /** A stream piped into the command's standard input. */
  input?: NodeJS.ReadableStream;
}

/** Runs `command args…` in its own process group; rejects when it fails or outlives its time. */
function step(what: string, command: string, args: string[], options: Options): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      detached: true,
      cwd: options.cwd,
      stdio: [options.input ? "pipe" : "ignore", "pipe", "pipe"],
    });
    live.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
    if (options.input) options.input.pipe(child.stdin!);
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`stand-in: ${what} (${command}) did not end in ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      live.delete(child);
      reject(new Error(`stand-in: ${what} (${command}): ${error.message}`));
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      live.delete(child);
      if (code === 0) resolve(stdout);
      else {
        const output = (stderr + stdout).slice(-4000);
        reject(new Error(`stand-in: ${what} failed (${command} exited ${code}):\n${output}`));
      }
    });
  });
}

async function imageExists(tag: string): Promise<boolean> {
  return step("docker image inspect", "docker", ["image", "inspect", tag], { timeoutMs: 30_000 }).then(
    () => true,
    () => false,
  );
}

/** The npm package of Node's official Linux binary for this machine. */
function nodePackage(): string {
  const arch = { x64: "x64", arm64: "arm64" }[process.arch as string];
  if (!arch) throw new Error(`stand-in: no node-linux-* package on the npm registry for ${process.arch}`);
  return `node-linux-${arch}@${NODE_MAJOR}`;
}

/** Builds the stand-in as `tag` unless Docker has it; returns the seconds building took (0: reused). */
async function ensureStandIn(tag: string, log: (line: string) => void): Promise<number> {
  if (await imageExists(tag)) {
    log(`stand-in: ${tag} is there, reused (docker rmi it to rebuild)`);
    return 0;
  }

  const started = performance.now();
  const mirror = mirrorFor(machineAptSources(), SUITE);
  if (!mirror)
    throw new Error(`stand-in: no apt source for Debian ${SUITE} in /etc/apt (needed for debootstrap)`);
  const work = mkdtempSync(path.join(tmpdir(), "node-standin-"));
  currentWork = work;
  const root = path.join(work, "root");
  try {
    log(`stand-in: debootstrap --variant=minbase ${SUITE} from ${mirror}`);
    await step("debootstrap", "debootstrap", ["--variant=minbase", SUITE, root, mirror], {
      timeoutMs: 20 * 60_000,
    });
    slim(root);

    // Node 24 and npm of this machine's major, from the npm registry.
    const npmMajor = execFileSync("npm", ["--version"], { encoding: "utf8", timeout: 60_000 })
      .trim()
      .split(".")[0];
    const packed = JSON.parse(
      await step("npm pack", "npm", ["pack", "--json", nodePackage(), `npm@${npmMajor}`], {
        timeoutMs: 10 * 60_000,
        cwd: work,
      }),
    ) as { filename: string; version: string }[];
    const [nodeTgz, npmTgz] = packed.map((entry) => path.join(work, entry.filename));
    const nodeVersion = packed[0]!.version;
    log(`stand-in: node ${nodeVersion}, npm ${packed[1]!.version}`);
    mkdirSync(path.join(work, "node"));
    mkdirSync(path.join(work, "npm"));
    const minutes = (n: number) => ({ timeoutMs: n * 60_000 });
    await step("unpack node", "tar", ["-xzf", nodeTgz!, "-C", path.join(work, "node")], minutes(5));
    await step("unpack npm", "tar", ["-xzf", npmTgz!, "-C", path.join(work, "npm")], minutes(5));
    const local = path.join(root, "usr/local");
    copyFileSync(path.join(work, "node/package/bin/node"), path.join(local, "bin/node"));
    await step(
      "node headers",
      "cp",
      ["-a", path.join(work, "node/package/include/."), path.join(local, "include")],
      minutes(1),
    );
    mkdirSync(path.join(local, "lib/node_modules"), { recursive: true });
    await step(
      "npm",
      "cp",
      ["-a", path.join(work, "npm/package"), path.join(local, "lib/node_modules/npm")],
      minutes(1),
    );
    symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", path.join(local, "bin/npm"));
    symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", path.join(local, "bin/npx"));
    writeFileSync(path.join(local, "bin/docker-entrypoint.sh"), ENTRYPOINT_SCRIPT, { mode: 0o755 });
    await step("group node", "chroot", [root, "groupadd", "--gid", "1000", "node"], minutes(1));
    await step(
      "user node",
      "chroot",
      [root, "useradd", "--uid", "1000", "--gid", "node", "--shell", "/bin/bash", "--create-home", "node"],
      minutes(1),
    );

    const env = [
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      `NODE_VERSION=${nodeVersion}`,
    ];
    const hostCa = process.env.NODE_EXTRA_CA_CERTS;
    if (hostCa && existsSync(hostCa)) {
      mkdirSync(path.dirname(path.join(root, CA_IN_IMAGE)), { recursive: true });
      copyFileSync(hostCa, path.join(root, CA_IN_IMAGE));
      env.push(`NODE_EXTRA_CA_CERTS=${CA_IN_IMAGE}`);
      log(`stand-in: this machine's CA bundle (${hostCa}) trusted by node and npm in the stand-in`);
    }

    const changes = [
      ...env.map((value) => `ENV ${value}`),
      `LABEL org.opencontainers.image.description="stand-in for node:24-bookworm-slim (debootstrap ${SUITE} + node ${nodeVersion})"`,
      'ENTRYPOINT ["docker-entrypoint.sh"]',
      'CMD ["node"]',
    ].flatMap((change) => ["--change", change]);
    // Numeric owners: the host's names for uid 1000 and the rest must not matter.
    const tar = spawn("tar", ["--numeric-owner", "-C", root, "-cf", "-", "."], {
      detached: true,
      stdio: ["ignore", "pipe", "inherit"],
    });
    live.add(tar);
    const tarExit = new Promise<number | null>((resolve) => tar.once("close", resolve));
    await step("docker import", "docker", ["import", ...changes, "-", tag], {
      input: tar.stdout!,
      timeoutMs: 10 * 60_000,
    }).catch((error: unknown) => {
      killGroup(tar);
      throw error;
    });
    if ((await tarExit) !== 0) throw new Error("stand-in: tar of the root failed");
    live.delete(tar);
    log(`stand-in: imported as ${tag}`);
  } finally {
    removeWork(work);
    currentWork = undefined;
  }
  return (performance.now() - started) / 1000;
}

/** Mount points at or under `dir` (debootstrap mounts /proc and /sys in the root it builds), deepest first. */
function mountsUnder(dir: string): string[] {
  let table = "";
  try {
    table = readFileSync("/proc/self/mounts", "utf8");
  } catch {
    return [];
  }
  return table
    .split("\n")
    .map((line) =>
      (line.split(" ")[1] ?? "").replace(/\\([0-7]{3})/g, (_, octal: string) =>
        String.fromCharCode(parseInt(octal, 8)),
      ),
    )
    .filter((point) => point === dir || point.startsWith(`${dir}/`))
    .sort()
    .reverse();
}

/**
 * Removes the temporary directory, after detaching what a killed debootstrap
 * left mounted in it, so that removing never reaches into the host's /proc,
 * /sys or /dev; left in place (and said) when a mount stays.
 */
function removeWork(dir: string) {
  for (const point of mountsUnder(dir)) spawnSync("umount", ["--lazy", point], { timeout: 30_000 });
  const left = mountsUnder(dir);
  if (left.length > 0) {
    console.error(`stand-in: ${dir} left in place, still mounted: ${left.join(", ")}`);
    return;
  }
  rmSync(dir, { recursive: true, force: true });
}

/** What debian:bookworm-slim leaves out: apt lists and caches, documentation, manuals, locales, logs. */
function slim(root: string) {
  for (const dir of ["var/lib/apt/lists", "var/cache/apt", "usr/share/man", "usr/share/info", "var/log"]) {
    rmSync(path.join(root, dir), { recursive: true, force: true });
    mkdirSync(path.join(root, dir), { recursive: true });
  }
  mkdirSync(path.join(root, "var/lib/apt/lists/partial"), { recursive: true });
  mkdirSync(path.join(root, "var/cache/apt/archives/partial"), { recursive: true });
  execFileSync("find", [
    path.join(root, "usr/share/doc"),
    "-mindepth",
    "1",
    "-type",
    "f",
    "!",
    "-name",
    "copyright",
    "-delete",
  ]);
  execFileSync("find", [
    path.join(root, "usr/share/locale"),
    "-mindepth",
    "1",
    "-maxdepth",
    "1",
    "!",
    "-name",
    "locale.alias",
    "-exec",
    "rm",
    "-rf",
    "{}",
    "+",
  ]);
}

const tag = process.argv[2] ?? STANDIN_TAG;
ensureStandIn(tag, console.log).then(
  (seconds) => {
    if (seconds > 0) console.log(`stand-in: ${tag} made in ${seconds.toFixed(0)} s`);
  },
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
