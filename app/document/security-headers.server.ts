import { parseDsn, securityEndpoint } from "~/monitoring/sentry-dsn";

/** Security headers of every document response, and its CSP nonce (`nosniff`: server/response-headers.ts). */

/** A fresh, unguessable nonce for one response. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString("base64");
}

interface CspOptions {
  nonce: string;
  /** Sentry DSN when Sentry is on; the browser may then talk to its ingest origin. */
  sentryDsn?: string;
  /** Same-origin tunnel path: when set, the browser never talks to the ingest origin. */
  sentryTunnel?: string;
}

/**
 * The Content-Security-Policy. Scripts run only with this response's nonce;
 * `'strict-dynamic'` extends that trust to the chunks they import. Styles may be
 * inline (React style attributes, Sentry's widgets), which cannot run code.
 */
export function contentSecurityPolicy({ nonce, sentryDsn, sentryTunnel }: CspOptions): string {
  const connect = ["'self'"];
  if (sentryDsn && !sentryTunnel) connect.push(new URL(sentryDsn).origin);
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

/**
 * Features no page of the scaffold uses; a product that needs one opens it here.
 * No `interest-cohort`: browsers dropped FLoC and warn about the unknown feature.
 */
const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

interface SecurityHeaderOptions extends Omit<CspOptions, "nonce"> {
  /** `Strict-Transport-Security` max-age in seconds; 0 leaves the header out (plain-HTTP deployments). */
  hstsMaxAge: number;
}

/** Stands for the nonce while the policy is built once; no policy text can contain it. */
const NONCE_SLOT = "\u0000nonce\u0000";

/** Builds the policy once (the configuration is fixed); each response only splices in its nonce. */
export function securityHeaders(options: SecurityHeaderOptions): (headers: Headers, nonce: string) => void {
  const [beforeNonce, afterNonce] = contentSecurityPolicy({ ...options, nonce: NONCE_SLOT }).split(
    NONCE_SLOT,
  );
  const hsts = options.hstsMaxAge > 0 ? `max-age=${options.hstsMaxAge}; includeSubDomains` : undefined;
  return (headers, nonce) => {
    headers.set("Content-Security-Policy", `${beforeNonce}${nonce}${afterNonce}`);
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    headers.set("X-Frame-Options", "DENY");
    headers.set("Permissions-Policy", PERMISSIONS_POLICY);
    if (hsts) headers.set("Strict-Transport-Security", hsts);
  };
}
