import { existsSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseDsn } from "~/monitoring/sentry-dsn";
import { parseTrustProxy } from "~/http/trust-proxy.server";

/**
 * The one place where the server reads its configuration: the env file
 * (`loadEnvFile`), then the environment. Every variable is validated once, at
 * start; a bad value stops the process with one line that names the variable
 * (see `formatEnvError`). Documented in docs/configuration.md and `.env.example`.
 */

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const sampleRate = z.coerce
  .number({ message: "must be a number between 0 and 1" })
  .min(0, "must be a number between 0 and 1")
  .max(1, "must be a number between 0 and 1");

const dsn = optionalString.refine(
  (value) => value === undefined || parseDsn(value) !== undefined,
  "must be a Sentry DSN such as https://<key>@<host>/<project-id>",
);

const tunnelRoute = optionalString.refine(
  (value) => value === undefined || /^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(value),
  "must be an absolute path such as /monitoring",
);

/** Longest drain delay accepted: a minute is far more than any balancer needs to notice readiness. */
const MAX_DRAIN_DELAY_MS = 60_000;

const drainDelay = z.coerce
  .number({ message: `must be a whole number of milliseconds from 0 to ${MAX_DRAIN_DELAY_MS}` })
  .int(`must be a whole number of milliseconds from 0 to ${MAX_DRAIN_DELAY_MS}`)
  .min(0, `must be a whole number of milliseconds from 0 to ${MAX_DRAIN_DELAY_MS}`)
  .max(MAX_DRAIN_DELAY_MS, `must be a whole number of milliseconds from 0 to ${MAX_DRAIN_DELAY_MS}`);

/** An http(s) URL with a host: what the SDK's proxy agent can connect through (`proxy:3128` has no scheme). */
const proxyUrl = optionalString.refine((value) => {
  if (value === undefined) return true;
  const url = URL.parse(value);
  return url !== null && (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}, "must be an http:// or https:// URL such as http://proxy.internal:3128");

const trustProxy = optionalString
  .refine(
    (value) => value === undefined || parseTrustProxy(value) !== undefined,
    "must be a number of proxy hops or a comma-separated list of IP addresses and CIDR ranges",
  )
  .transform((value) => (value === undefined ? undefined : parseTrustProxy(value)));

/** Largest BODY_SIZE_LIMIT accepted: a body beyond a gigabyte belongs in object storage, not a form post. */
const MAX_BODY_SIZE_LIMIT = 1024 ** 3;
const BODY_SIZE_MESSAGE = "must be a size in bytes from 1 to 1G, optionally with K or M (1048576, 512K, 10M)";

const bodySize = z
  .string()
  .trim()
  .regex(/^[1-9][0-9]*[KMG]?$/i, BODY_SIZE_MESSAGE)
  .transform((value) => Number.parseInt(value, 10) * 1024 ** ("KMG".indexOf(value.at(-1)!.toUpperCase()) + 1))
  .refine((bytes) => bytes <= MAX_BODY_SIZE_LIMIT, BODY_SIZE_MESSAGE);

const instanceId = optionalString.refine(
  (value) => value === undefined || /^[A-Za-z0-9._:-]{1,128}$/.test(value),
  "must be 1 to 128 characters from A-Z a-z 0-9 . _ : -",
);

const PORT_MESSAGE = "must be a whole number from 0 to 65535 (0: any free port)";
const port = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z.coerce
    .number({ message: PORT_MESSAGE })
    .int(PORT_MESSAGE)
    .min(0, PORT_MESSAGE)
    .max(65535, PORT_MESSAGE)
    .default(3000),
);

/** A host name or an IP address (IPv6 with or without brackets): what `listen` takes. */
const host = optionalString.refine(
  (value) =>
    value === undefined ||
    /^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*|[A-Za-z0-9.-]{1,253})$/.test(value),
  "must be a host name or an IP address (0.0.0.0, ::, localhost)",
);

export const envSchema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  /** Where the server listens; the check here gives a bad value its one line. */
  PORT: port,
  /** Unset: every interface, `localhost` under `npm run dev`. */
  HOST: host,
  SENTRY_DSN: dsn,
  SENTRY_ENVIRONMENT: optionalString,
  SENTRY_RELEASE: optionalString,
  /** Share of requests traced (the default's cost: bench/README.md). */
  SENTRY_TRACES_SAMPLE_RATE: sampleRate.default(0.1),
  SENTRY_TUNNEL_ROUTE: tunnelRoute,
  SENTRY_FEEDBACK: z.enum(["on", "off"], { message: 'must be "on" or "off"' }).default("off"),
  /** Strict-Transport-Security max-age in seconds; 0 (default) sends no HSTS header. Set it when served over HTTPS. */
  HSTS_MAX_AGE: z.coerce
    .number({ message: "must be a whole number of seconds" })
    .int("must be a whole number of seconds")
    .min(0, "must be a whole number of seconds")
    .default(0),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      message: "must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  /** After SIGTERM: how long the server keeps serving (readiness failing) before it stops accepting. */
  SHUTDOWN_DRAIN_DELAY_MS: drainDelay.default(0),
  /** Which proxies may tell the client address and scheme (X-Forwarded-For/-Proto); unset trusts none. */
  TRUST_PROXY: trustProxy,
  /** Largest request body in bytes; larger ones get 413 before they are read. */
  BODY_SIZE_LIMIT: z.preprocess((value) => (value === "" ? undefined : value), bodySize.default(1024 * 1024)),
  /** The name every log line carries; the host name (the pod name in Kubernetes) when unset. */
  INSTANCE_ID: instanceId,
  /** An outbound proxy, by the conventional names Sentry's own transport reads: the ingest is reached through it. */
  https_proxy: proxyUrl,
  http_proxy: proxyUrl,
});

export type Env = z.infer<typeof envSchema>;

/** One line naming the first bad variable, e.g. `Invalid environment: SENTRY_TRACES_SAMPLE_RATE must be …`. */
function formatEnvError(error: z.ZodError): string {
  const issue = error.issues[0];
  const name = issue?.path.join(".") ?? "environment";
  return `Invalid environment: ${name} ${issue?.message ?? "is invalid"}`;
}

/** Parses `source` or throws an Error whose message is the one-line summary. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) throw new Error(formatEnvError(result.error));
  return result.data;
}

/**
 * Reads the env file (`ENV_FILE`, else `.env`) before anything reads the
 * environment; Node's loader never overrides a variable already set, so a
 * deployment's settings win. A missing `.env` is fine, a missing `ENV_FILE` is
 * refused, `ENV_FILE=` reads none. Returns the file read, or null.
 */
export function loadEnvFile(
  environment: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): string | null {
  const configured = environment.ENV_FILE;
  const file = configured ?? ".env";
  if (file === "") return null;
  if (!existsSync(path.resolve(cwd, file))) {
    if (configured === undefined) return null;
    throw new Error(`Invalid environment: ENV_FILE names a file that does not exist: ${file}`);
  }
  process.loadEnvFile(path.resolve(cwd, file));
  return file;
}

let cached: Env | undefined;

/** The validated server environment (parsed on first use, then cached). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The instance name on log lines and Sentry events: `INSTANCE_ID`, else the host name. */
export function instanceName(env: Env): string {
  return env.INSTANCE_ID ?? hostname();
}

/** The outbound proxy for the Sentry ingest, if one is set (`https_proxy`, else `http_proxy`). */
export function outboundProxy(env: Env): string | undefined {
  return env.https_proxy ?? env.http_proxy;
}

/** The environment Sentry events carry: SENTRY_ENVIRONMENT, else NODE_ENV. */
export function sentryEnvironment(env: Env): string {
  return env.SENTRY_ENVIRONMENT ?? env.NODE_ENV;
}

/**
 * The allowlist of settings the browser may see. Nothing else from the server
 * environment reaches the page: adding a key here is the only way to expose one.
 */
export function getPublicEnv(env: Env) {
  return {
    SENTRY_DSN: env.SENTRY_DSN,
    SENTRY_ENVIRONMENT: sentryEnvironment(env),
    SENTRY_RELEASE: env.SENTRY_RELEASE,
    SENTRY_TRACES_SAMPLE_RATE: env.SENTRY_TRACES_SAMPLE_RATE,
    SENTRY_TUNNEL_ROUTE: env.SENTRY_TUNNEL_ROUTE,
    SENTRY_FEEDBACK: env.SENTRY_FEEDBACK,
  };
}

export type PublicEnv = ReturnType<typeof getPublicEnv>;
