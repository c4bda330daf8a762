import { maskPrivateText } from "./masked-text.server";

/**
 * What identifies a thrown value without the data in it: its keys, type and
 * length, worded as Sentry's SDK words a thrown plain object
 * ("Object captured as exception with keys: …", @sentry/core's eventbuilder).
 */

/** Enough to tell two objects apart; the SDK itself lists them all, however long. */
const MAX_KEYS = 20;
const MAX_KEY_LENGTH = 40;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Sorted, as the SDK sorts them; a key shaped like a private value (an e-mail as key) is masked. */
export function keysOf(value: object): string[] {
  const keys = Object.keys(value)
    .sort()
    .map((key) =>
      maskPrivateText(key.length > MAX_KEY_LENGTH ? `${key.slice(0, MAX_KEY_LENGTH - 1)}…` : key),
    );
  return keys.length > MAX_KEYS ? [...keys.slice(0, MAX_KEYS), "…"] : keys;
}

export function keysForMessage(keys: string[]): string {
  return keys.length ? keys.join(", ") : "[object has no keys]";
}

/** `Object`, a class name, or `typeof` for a primitive. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  try {
    return Object.getPrototypeOf(value)?.constructor?.name || "Object";
  } catch {
    return "Object";
  }
}

/** A thrown value that is not an Error, in the SDK's words, with no value of it. */
export function describeThrownValue(value: unknown): string {
  const kind = kindOf(value);
  if (typeof value !== "object" || value === null) return `${kind} captured as exception`;
  const name = kind === "Object" ? "Object" : `'${kind}'`;
  return `${name} captured as exception with keys: ${keysForMessage(keysOf(value))}`;
}
