/**
 * The parts of an event these rules read and change, written out: the browser
 * and server SDKs each have their own `@sentry/core`, whose event types differ.
 */
type Attributes = Record<string, unknown>;
interface ScrubbableEvent {
  message?: string;
  exception?: { values?: { value?: string }[] };
  contexts?: { trace?: { data?: Attributes } };
  spans?: { data?: Attributes }[];
  request?: { cookies?: unknown; data?: unknown; headers?: Record<string, string> };
  user?: { ip_address?: string | null };
}
interface NamedEvent extends ScrubbableEvent {
  transaction?: string;
}
import { NOT_FOUND_PATTERN } from "~/routing/route-patterns";

// What the server and the browser SDK share: limits, filters, privacy and transaction rules.

/** The settings both sides read, from the validated environment (the browser gets them through the allowlist). */
interface SentrySettings {
  SENTRY_DSN?: string;
  SENTRY_ENVIRONMENT?: string;
  SENTRY_RELEASE?: string;
  SENTRY_TRACES_SAMPLE_RATE: number;
}

/**
 * The server SDK's defaults, set on both sides because the browser's differ.
 * The backoff is the SDK's fixed one for a 429 without headers.
 */
export const SENTRY_LIMITS = {
  maxBreadcrumbs: 100,
  bufferSize: 64,
  defaultRateLimitBackoffSeconds: 60,
} as const;

/**
 * Errors never worth a report: the browser's opaque cross-origin "Script error."
 * and both wordings of the ResizeObserver notice (the SDK's list knows one).
 */
const IGNORED_ERRORS: RegExp[] = [
  /^Script error\.?$/,
  /^ResizeObserver loop limit exceeded$/,
  /^ResizeObserver loop completed with undelivered notifications\.?$/,
];

/** True for an event whose message or any exception value is on the ignore list. */
export function isIgnoredError(event: Pick<ScrubbableEvent, "message" | "exception">): boolean {
  const messages = [event.message, ...(event.exception?.values ?? []).map((value) => value.value)];
  return messages.some(
    (message) => typeof message === "string" && IGNORED_ERRORS.some((pattern) => pattern.test(message)),
  );
}

/** Request headers an event may keep. Everything else (Cookie, Authorization, API keys, IP headers) is dropped. */
export const ALLOWED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "accept-language",
  "content-length",
  "content-type",
  "host",
  "referer",
  "user-agent",
]);

/** Span attributes that copy a header (`http.request.header.user_agent`) or one cookie of it (`…header.cookie.theme`). */
const HEADER_ATTRIBUTE = /^http\.(?:request|response)\.header\.([^.]+)/;

/**
 * Keeps only the header attributes of the allowlist: an SDK may copy every
 * request header and most cookies into span attributes, whatever its privacy options say.
 */
function scrubHeaderAttributes(data: Record<string, unknown> | undefined): void {
  if (!data) return;
  for (const key of Object.keys(data)) {
    const header = HEADER_ATTRIBUTE.exec(key)?.[1]?.replaceAll("_", "-");
    if (header !== undefined && (key.split(".").length > 4 || !ALLOWED_REQUEST_HEADERS.has(header))) {
      delete data[key];
    }
  }
}

/**
 * Removes what could identify a person or hold a secret: cookies, bodies,
 * headers off the allowlist (also in span attributes), the client's IP address.
 */
export function scrubEvent<T extends ScrubbableEvent>(event: T): T {
  scrubHeaderAttributes(event.contexts?.trace?.data);
  for (const span of event.spans ?? []) scrubHeaderAttributes(span.data);
  const request = event.request;
  if (request) {
    delete request.cookies;
    delete request.data;
    if (request.headers) {
      request.headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => ALLOWED_REQUEST_HEADERS.has(name.toLowerCase())),
      );
    }
  }
  if (event.user) {
    delete event.user.ip_address;
    if (Object.keys(event.user).length === 0) delete event.user;
  }
  return event;
}

/** Transactions nobody should pay for: the catch-all not-found route's, and `untracedPaths`. */
export function isDroppedTransaction(
  name: string | undefined,
  untracedPaths: readonly string[] = [],
): boolean {
  if (!name) return false;
  const pattern = name.replace(/^[A-Z]+ /, "");
  return pattern === NOT_FOUND_PATTERN || untracedPaths.includes(pattern);
}

/** Options both SDKs are initialised with. */
export function sharedSentryOptions(settings: SentrySettings, untracedPaths: readonly string[] = []) {
  return {
    dsn: settings.SENTRY_DSN,
    environment: settings.SENTRY_ENVIRONMENT,
    release: settings.SENTRY_RELEASE,
    tracesSampleRate: settings.SENTRY_TRACES_SAMPLE_RATE,
    maxBreadcrumbs: SENTRY_LIMITS.maxBreadcrumbs,
    transportOptions: { bufferSize: SENTRY_LIMITS.bufferSize },
    ignoreErrors: IGNORED_ERRORS,
    // Privacy options differ between the two SDKs: each side sets its own.
    enableLogs: false,
    beforeSend<T extends ScrubbableEvent>(event: T): T | null {
      return isIgnoredError(event) ? null : scrubEvent(event);
    },
    beforeSendTransaction<T extends NamedEvent>(event: T): T | null {
      return isDroppedTransaction(event.transaction, untracedPaths) ? null : scrubEvent(event);
    },
  };
}
