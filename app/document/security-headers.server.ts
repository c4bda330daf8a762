import type { IncomingMessage } from "node:http";
import type { Env } from "~/env.server";
import { parseDsn, securityEndpoint } from "~/http/sentry-dsn";

/** The security headers of every response (set by server/pre-app/response-headers.ts alone) and their nonce. */

const NONCE_BYTES = 16;
const POOLED_NONCES = 256;
/** One random call per nonce costs more than the rest of the headers; Node's randomUUID pools alike. */
const pool = Buffer.alloc(NONCE_BYTES * POOLED_NONCES);
let pooled = 0;

export function createNonce(): string {
  if (pooled === 0) {
    crypto.getRandomValues(pool);
    pooled = POOLED_NONCES;
  }
  const start = NONCE_BYTES * --pooled;
  return pool.toString("base64", start, start + NONCE_BYTES);
}

interface CspOptions {
  nonce: string;
  sentryDsn?: string;
  /** With a tunnel the browser never talks to the ingest origin. */
  sentryTunnel?: string;
  /** Development's Spotlight sidecar, where the browser's SDK sends too. */
  spotlight?: string;
}

/** `'strict-dynamic'`: the nonce's trust extends to the chunks imported; inline styles cannot run code. */
export function contentSecurityPolicy({ nonce, sentryDsn, sentryTunnel, spotlight }: CspOptions): string {
  const connect = ["'self'"];
  if (sentryDsn && !sentryTunnel) connect.push(new URL(sentryDsn).origin);
  if (spotlight) connect.push(new URL(spotlight).origin);
  const directives = [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect.join(" ")}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ];
  const dsn = parseDsn(sentryDsn);
  if (dsn) directives.push(`report-uri ${securityEndpoint(dsn)}`);
  return directives.join("; ");
}

/** A product that needs one of these opens it here. No `interest-cohort`: browsers warn about it. */
const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

/** No policy text can contain it, so the policy is built once and each response splices in its nonce. */
const NONCE_SLOT = "\u0000nonce\u0000";

export type SecurityHeaderEnv = Pick<
  Env,
  "SENTRY_DSN" | "SENTRY_TUNNEL_ROUTE" | "SENTRY_SPOTLIGHT" | "HSTS_MAX_AGE"
>;

export function securityHeaders(env: SecurityHeaderEnv): (nonce: string) => [name: string, value: string][] {
  const [beforeNonce, afterNonce] = contentSecurityPolicy({
    nonce: NONCE_SLOT,
    sentryDsn: env.SENTRY_DSN,
    sentryTunnel: env.SENTRY_TUNNEL_ROUTE,
    spotlight: env.SENTRY_SPOTLIGHT,
  }).split(NONCE_SLOT);
  const hsts = env.HSTS_MAX_AGE > 0 ? `max-age=${env.HSTS_MAX_AGE}; includeSubDomains` : undefined;
  return (nonce) => [
    ["Content-Security-Policy", `${beforeNonce}${nonce}${afterNonce}`],
    // A browser that sniffs a text answer as HTML runs what a client put in it.
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", PERMISSIONS_POLICY],
    ...(hsts ? [["Strict-Transport-Security", hsts] as [string, string]] : []),
  ];
}

const nonces = new WeakMap<IncomingMessage, string>();

export function recordNonce(incoming: IncomingMessage, nonce: string): void {
  nonces.set(incoming, nonce);
}

export function nonceOf(incoming: IncomingMessage | undefined): string | undefined {
  return incoming && nonces.get(incoming);
}
