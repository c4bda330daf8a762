import { maskPrivateText } from "./masked-text.server";
import { describeThrownValue, keysOf } from "./value-shape.server";

/**
 * What the log line and the Sentry event say of a failure's cause: an Error's
 * type and stack, its message masked (masked-text.server.ts), its own fields by
 * name only (pino would write their values: an HTTP client's error carries the
 * request's headers); a thrown value that is no Error, by its keys only.
 */

/** A thrown value that is neither an Error nor a Response, named as Sentry's SDK names it. */
export class ThrownValue extends Error {
  override name = "ThrownValue";
}

/** Node's system errors say what failed in these; none holds a user's data. */
const KEPT_FIELDS = new Set(["code", "errno", "syscall"]);
const MAX_CAUSES = 5;

/** The message in the stack's first lines, before its frames. */
function maskedStack(stack: string): string {
  const frames = stack.search(/\n\s+at /);
  return frames < 0 ? maskPrivateText(stack) : maskPrivateText(stack.slice(0, frames)) + stack.slice(frames);
}

function maskedError(error: Error, depth: number): Error {
  // A real Error of the same prototype: the SDK's `type` and pino's read its class.
  const masked = Object.setPrototypeOf(new Error(), Object.getPrototypeOf(error) as object) as Error;
  const define = (key: string, value: unknown) =>
    Object.defineProperty(masked, key, {
      value,
      enumerable: key !== "stack",
      writable: true,
      configurable: true,
    });
  define("message", maskPrivateText(String(error.message ?? "")));
  if (typeof error.stack === "string") define("stack", maskedStack(error.stack));
  if (Object.hasOwn(error, "name")) define("name", error.name);
  const fields: string[] = [];
  for (const key of Object.keys(error)) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (key === "message" || key === "stack" || key === "name" || key === "cause") continue;
    if (KEPT_FIELDS.has(key) && (typeof value === "string" || typeof value === "number")) define(key, value);
    else fields.push(key);
  }
  if (fields.length) define("fields", keysOf(Object.fromEntries(fields.map((key) => [key, 0]))));
  if ("cause" in error && error.cause !== undefined && depth < MAX_CAUSES)
    define("cause", reportedCause(error.cause, depth + 1));
  return masked;
}

export function reportedCause(thrown: unknown, depth = 0): Error {
  if (thrown instanceof Error) return maskedError(thrown, depth);
  const error = new ThrownValue(describeThrownValue(thrown));
  // The frames would be ours, not the thrower's.
  error.stack = `${error.name}: ${error.message}`;
  return error;
}
