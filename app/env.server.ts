import { existsSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseDsn } from "~/http/sentry-dsn";
import { parseSpotlight, SPOTLIGHT_MESSAGE } from "~/http/spotlight-url";
import { parseTrustProxy } from "~/http/trust-proxy.server";
import {
  parseTracePropagationTargets,
  TRACE_PROPAGATION_TARGETS_MESSAGE,
} from "~/http/trace-propagation-targets.server";

/** Validated once, at start: a bad value stops the process with one line naming it (docs/configuration.md). */

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const sampleRate = z.coerce
  .number({ message: "must be a number between 0 and 1" })
  .min(0, "must be a number between 0 and 1")
  .max(1, "must be a number between 0 and 1");

const MAX_TRACES_PER_SECOND = 100_000;
const TRACES_PER_SECOND_MESSAGE = `must be a whole number of traces a second from 1 to ${MAX_TRACES_PER_SECOND}`;
const tracesPerSecond = z.coerce
  .number({ message: TRACES_PER_SECOND_MESSAGE })
  .int(TRACES_PER_SECOND_MESSAGE)
  .min(1, TRACES_PER_SECOND_MESSAGE)
  .max(MAX_TRACES_PER_SECOND, TRACES_PER_SECOND_MESSAGE);

const dsn = optionalString.refine(
  (value) => value === undefined || parseDsn(value) !== undefined,
  "must be a Sentry DSN such as https://<key>@<host>/<project-id>",
);

const spotlight = optionalString
  .refine((value) => value === undefined || parseSpotlight(value) !== undefined, SPOTLIGHT_MESSAGE)
  .transform((value) => (value === undefined ? undefined : (parseSpotlight(value) ?? undefined)));

const tunnelRoute = optionalString.refine(
  (value) => value === undefined || /^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(value),
  "must be an absolute path such as /monitoring",
);

/** A minute is far more than any balancer needs to notice readiness. */
const MAX_DRAIN_DELAY_MS = 60_000;

const drainDelay = z.coerce
  .number({ message: `must be a whole number of milliseconds from 0 to ${MAX_DRAIN_DELAY_MS}` })
  .int(`must be a whole number of milliseconds from 0 to ${MAX_DRAIN_DELAY_MS}`)
  .min(0, `must be a whole number of milliseconds from 0 to ${MAX_DRAIN_DELAY_MS}`)
  .max(MAX_DRAIN_DELAY_MS, `must be a whole number of milliseconds from 0 to ${MAX_DRAIN_DELAY_MS}`);

/** What the SDK's proxy agent can connect through (`proxy:3128` has no scheme). */
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

/** A body beyond a gigabyte belongs in object storage, not a form post. */
const MAX_BODY_SIZE_LIMIT = 1024 ** 3;
const BODY_SIZE_MESSAGE = "must be a size in bytes from 1 to 1G, optionally with K or M (1048576, 512K, 10M)";

const bodySize = z
  .string()
  .trim()
  .regex(/^[1-9][0-9]*[KMG]?$/i, BODY_SIZE_MESSAGE)
  .transform((value) => Number.parseInt(value, 10) * 1024 ** ("KMG".indexOf(value.at(-1)!.toUpperCase()) + 1))
  .refine((bytes) => bytes <= MAX_BODY_SIZE_LIMIT, BODY_SIZE_MESSAGE);

/** Empty or unset: the default (`tracePropagationTargets`), so one spelling means "not configured". */
const propagationTargets = optionalString
  .refine(
    (value) => value === undefined || parseTracePropagationTargets(value) !== undefined,
    TRACE_PROPAGATION_TARGETS_MESSAGE,
  )
  .transform((value) => (value === undefined ? undefined : parseTracePropagationTargets(value)));

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

const host = optionalString.refine(
  (value) =>
    value === undefined ||
    /^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*|[A-Za-z0-9.-]{1,253})$/.test(value),
  "must be a host name or an IP address (0.0.0.0, ::, localhost)",
);

const variables = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: port,
  HOST: host,
  SENTRY_DSN: dsn,
  SENTRY_ENVIRONMENT: optionalString,
  SENTRY_RELEASE: optionalString,
  SENTRY_TRACES_SAMPLE_RATE: sampleRate.optional(),
  SENTRY_TRACES_PER_SECOND: tracesPerSecond.default(20),
  SENTRY_TUNNEL_ROUTE: tunnelRoute,
  SENTRY_SPOTLIGHT: spotlight,
  SENTRY_TRACE_PROPAGATION_TARGETS: propagationTargets,
  SENTRY_FEEDBACK: z.enum(["on", "off"], { message: 'must be "on" or "off"' }).default("off"),
  SENTRY_LOGS_LEVEL: z
    .enum(["off", "fatal", "error", "warn", "info", "debug", "trace"], {
      message: "must be one of off, fatal, error, warn, info, debug, trace",
    })
    .default("off"),
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
  SHUTDOWN_DRAIN_DELAY_MS: drainDelay.default(0),
  TRUST_PROXY: trustProxy,
  BODY_SIZE_LIMIT: z.preprocess((value) => (value === "" ? undefined : value), bodySize.default(1024 * 1024)),
  INSTANCE_ID: instanceId,
  /** The conventional names Sentry's own transport reads. */
  https_proxy: proxyUrl,
  http_proxy: proxyUrl,
});

/** Spotlight: development's alone, with every request traced (decision 0086). */
export const envSchema = variables.transform((env) => {
  const spotlightUrl = env.NODE_ENV === "development" ? env.SENTRY_SPOTLIGHT : undefined;
  return {
    ...env,
    SENTRY_SPOTLIGHT: spotlightUrl,
    SENTRY_TRACES_SAMPLE_RATE: env.SENTRY_TRACES_SAMPLE_RATE ?? (spotlightUrl ? 1 : 0.1),
  };
});

export type Env = z.infer<typeof envSchema>;

function formatEnvError(error: z.ZodError): string {
  const issue = error.issues[0];
  const name = issue?.path.join(".") ?? "environment";
  return `Invalid environment: ${name} ${issue?.message ?? "is invalid"}`;
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) throw new Error(formatEnvError(result.error));
  return result.data;
}

/** A variable already set wins (the deployment's); a missing `ENV_FILE` is refused, `ENV_FILE=` reads none. */
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

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

export function instanceName(env: Env): string {
  return env.INSTANCE_ID ?? hostname();
}

export function outboundProxy(env: Env): string | undefined {
  return env.https_proxy ?? env.http_proxy;
}

/** Sentry runs when it has somewhere to send: its ingest, Spotlight in development, or both. */
export function sentryIsOn(env: Pick<Env, "SENTRY_DSN" | "SENTRY_SPOTLIGHT">): boolean {
  return Boolean(env.SENTRY_DSN || env.SENTRY_SPOTLIGHT);
}

export function sentryEnvironment(env: Env): string {
  return env.SENTRY_ENVIRONMENT ?? env.NODE_ENV;
}

/** Adding a key here is the only way to expose a server setting to the page. */
export function getPublicEnv(env: Env) {
  return {
    SENTRY_DSN: env.SENTRY_DSN,
    SENTRY_ENVIRONMENT: sentryEnvironment(env),
    SENTRY_RELEASE: env.SENTRY_RELEASE,
    SENTRY_TRACES_SAMPLE_RATE: env.SENTRY_TRACES_SAMPLE_RATE,
    SENTRY_TUNNEL_ROUTE: env.SENTRY_TUNNEL_ROUTE,
    SENTRY_FEEDBACK: env.SENTRY_FEEDBACK,
    SENTRY_SPOTLIGHT: env.SENTRY_SPOTLIGHT,
  };
}

export type PublicEnv = ReturnType<typeof getPublicEnv>;
