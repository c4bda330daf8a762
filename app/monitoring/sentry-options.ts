/**
 * The parts of an event these rules read and change, written out rather than
 * taken from `@sentry/core`: the browser SDK (10.x) and the server SDK (11.x)
 * each have their own `@sentry/core`, and their event types differ in details
 * these rules do not touch. Every function is generic over the SDK's own type.
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

/**
 * What the server and the browser SDK share: limits, filters, privacy and
 * transaction rules. Pure functions and plain data, unit-tested in
 * sentry-options.test.ts; `sentry.server.ts` and `sentry.client.ts` add only
 * what is specific to their side (integrations, transport details).
 */

/** The settings both sides read, from the validated environment (the browser gets them through the allowlist). */
interface SentrySettings {
  SENTRY_DSN?: string;
  SENTRY_ENVIRONMENT?: string;
  SENTRY_RELEASE?: string;
  SENTRY_TRACES_SAMPLE_RATE: number;
}

/**
 * Limits. 100 breadcrumbs and a 64-send buffer
 * are the SDK's own server defaults; the browser SDK's buffer defaults to 40,
 * so both sides set them explicitly. The 60 s rate-limit backoff is the SDK's
 * built-in default for a 429 without headers and is not configurable.
 */
export const SENTRY_LIMITS = {
  maxBreadcrumbs: 100,
  bufferSize: 64,
  defaultRateLimitBackoffSeconds: 60,
} as const;

/**
 * Errors never worth a report: the browser's opaque
 * cross-origin "Script error." and both wordings of the ResizeObserver loop
 * notice (the SDK's default list only knows the second one).
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
 * Keeps only the header attributes of the allowlist. The server SDK copies
 * every request header into its request span's attributes, and every cookie
 * whose name is not on its own short list of sensitive ones (session,
 * token…), whatever `sendDefaultPii` says (10.x; 11.x's `dataCollection` allowlist limits them too).
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
 * Removes what could identify a person or hold a secret: cookies, request
 * bodies (form values), any header not on the allowlist (on the request and
 * in span attributes), and the client's IP address. Applied to every error
 * and transaction event on both sides.
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

/**
 * Transactions nobody should pay for: requests served by
 * the catch-all not-found route, in the browser (`/*`) and on the server
 * (`GET /*`), and the operational endpoints listed in `untracedPaths`.
 */
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
    // Privacy: each side sets it in its SDK's own terms, `sendDefaultPii: false`
    // in the browser (10.x), a full `dataCollection` on the server (11.x).
    enableLogs: false,
    beforeSend<T extends ScrubbableEvent>(event: T): T | null {
      return isIgnoredError(event) ? null : scrubEvent(event);
    },
    beforeSendTransaction<T extends NamedEvent>(event: T): T | null {
      return isDroppedTransaction(event.transaction, untracedPaths) ? null : scrubEvent(event);
    },
  };
}
