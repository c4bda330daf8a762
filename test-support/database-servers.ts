/**
 * Debian's Postgres and Redis, each started for one test file on a free port
 * of 127.0.0.1 with its own folder (data, unix sockets, config) and a password,
 * and stopped with it (owned-server.ts). `.ci/run` installs both when missing.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ownedFolder, runAsServerUser, startOwnedServer, type OwnedServer } from "./owned-server";

export interface DatabaseServer extends OwnedServer {
  /** A connection URL with the user and password. */
  readonly url: string;
}

const POSTGRES_ROOT = "/usr/lib/postgresql";
const REDIS_SERVER = "/usr/bin/redis-server";

/** The newest Postgres's bin folder under /usr/lib/postgresql/<version>/bin (Debian's layout, not on PATH). */
export function postgresBin(): string | undefined {
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT)
        .filter((version) => existsSync(path.join(POSTGRES_ROOT, version, "bin/initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions[0] && path.join(POSTGRES_ROOT, versions[0], "bin");
}

/** Why the servers cannot run here, or undefined when they can. */
export function missingDatabaseServers(): string | undefined {
  const missing = [
    ...(postgresBin() ? [] : [`Postgres (no ${POSTGRES_ROOT}/<version>/bin/initdb)`]),
    ...(existsSync(REDIS_SERVER) ? [] : [`Redis (no ${REDIS_SERVER})`]),
  ];
  return missing.length
    ? `not installed: ${missing.join(", ")} (apt-get install postgresql redis-server)`
    : undefined;
}

export async function startPostgres(database: string, password: string): Promise<DatabaseServer> {
  const bin = postgresBin();
  if (!bin) throw new Error(missingDatabaseServers());
  const folder = ownedFolder("postgres-");
  const data = path.join(folder, "data");
  const passwordFile = path.join(folder, "password");
  writeFileSync(passwordFile, password, { mode: 0o644 });
  runAsServerUser(path.join(bin, "initdb"), [
    ...["-D", data, "-U", database, `--pwfile=${passwordFile}`],
    ...["--auth-host=scram-sha-256", "--auth-local=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
  ]);
  const server = await startOwnedServer({
    command: path.join(bin, "postgres"),
    args: (port) => [
      ...["-D", data, "-k", folder, "-p", String(port), "-c", "listen_addresses=127.0.0.1"],
      // A test's throw-away data: no durability, little memory.
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "shared_buffers=16MB"],
    ],
    folder,
    ready: (output) => output.includes("database system is ready to accept connections"),
    stopSignal: "SIGINT",
  });
  const url = `postgresql://${database}:${encodeURIComponent(password)}@127.0.0.1:${server.port}/postgres`;
  return { ...server, url };
}

export async function startRedis(password: string): Promise<DatabaseServer> {
  const folder = ownedFolder("redis-");
  const config = path.join(folder, "redis.conf");
  writeFileSync(
    config,
    [
      "bind 127.0.0.1",
      "protected-mode yes",
      `dir ${folder}`,
      // No persistence: nothing written, nothing read at start.
      'save ""',
      "appendonly no",
      `requirepass ${password}`,
      'logfile ""',
    ].join("\n") + "\n",
    { mode: 0o644 },
  );
  const server = await startOwnedServer({
    command: REDIS_SERVER,
    // The port on the command line, after the file: each try its own.
    args: (port) => [config, "--port", String(port)],
    folder,
    ready: (output) => output.includes("Ready to accept connections"),
    stopSignal: "SIGTERM",
  });
  return { ...server, url: `redis://:${encodeURIComponent(password)}@127.0.0.1:${server.port}` };
}
