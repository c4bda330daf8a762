/** Written out: the browser and server SDKs each have their own `@sentry/core`, whose event types differ. */
type Attributes = Record<string, unknown>;
interface ScrubbableEvent {
  message?: string;
  exception?: { values?: { value?: string }[] };
  contexts?: { trace?: { data?: Attributes } };
  spans?: { data?: Attributes }[];
  request?: { cookies?: unknown; data?: unknown; headers?: Record<string, string> };
  user?: { id?: string | number; ip_address?: string | null };
}
interface NamedEvent extends ScrubbableEvent {
  transaction?: string;
}
import { NOT_FOUND_PATTERN } from "~/routing/route-patterns";

interface SentrySettings {
  SENTRY_DSN?: string;
  SENTRY_ENVIRONMENT?: string;
  SENTRY_RELEASE?: string;
  SENTRY_TRACES_SAMPLE_RATE: number;
}

/** The server SDK's defaults (the backoff: its fixed one for a 429 without headers), set on both sides. */
export const SENTRY_LIMITS = {
  maxBreadcrumbs: 100,
  bufferSize: 64,
  defaultRateLimitBackoffSeconds: 60,
} as const;

/** The `Server-Timing` entry a data response carries the server's current trace rate in. */
export const TRACE_RATE_TIMING = "sentry-rate";

/** The browser's opaque cross-origin "Script error."; both wordings of ResizeObserver's (the SDK knows one). */
const IGNORED_ERRORS: RegExp[] = [
  /^Script error\.?$/,
  /^ResizeObserver loop limit exceeded$/,
  /^ResizeObserver loop completed with undelivered notifications\.?$/,
];

export function isIgnoredError(event: Pick<ScrubbableEvent, "message" | "exception">): boolean {
  const messages = [event.message, ...(event.exception?.values ?? []).map((value) => value.value)];
  return messages.some(
    (message) => typeof message === "string" && IGNORED_ERRORS.some((pattern) => pattern.test(message)),
  );
}

/** Everything else (Cookie, Authorization, API keys, IP headers) is dropped. */
export const ALLOWED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "accept-language",
  "content-length",
  "content-type",
  "host",
  "referer",
  "user-agent",
]);

const HEADER_ATTRIBUTE = /^http\.(?:request|response)\.header\.([^.]+)/;

/** An SDK may copy every header and most cookies into span attributes, whatever its privacy options say. */
function scrubHeaderAttributes(data: Record<string, unknown> | undefined): void {
  if (!data) return;
  for (const key of Object.keys(data)) {
    const header = HEADER_ATTRIBUTE.exec(key)?.[1]?.replaceAll("_", "-");
    if (header !== undefined && (key.split(".").length > 4 || !ALLOWED_REQUEST_HEADERS.has(header))) {
      delete data[key];
    }
  }
}

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
  // Only an id (docs/adding-a-route.md, "Who hit this error"): no address, e-mail or name.
  if (event.user) {
    if (event.user.id === undefined) delete event.user;
    else event.user = { id: event.user.id };
  }
  return event;
}

export function isDroppedTransaction(
  name: string | undefined,
  untracedPaths: readonly string[] = [],
): boolean {
  if (!name) return false;
  const pattern = name.replace(/^[A-Z]+ /, "");
  return pattern === NOT_FOUND_PATTERN || untracedPaths.includes(pattern);
}

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
