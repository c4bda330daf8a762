/** E-mail addresses, long digit runs (card, phone, account numbers) and tokens; names have no shape. */
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;
const LONG_DIGIT_RUN = /\d(?:[\s-]?\d){7,}/g;
/** A run of 20+ word characters with both a letter and a digit: API keys, session ids, UUIDs, JWT parts. */
const TOKEN = /(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{20,}(?![\w-])/g;
const BEARER = /\b(Bearer|Basic)\s+\S+/gi;

export function maskPrivateText(text: string): string {
  return text
    .replace(BEARER, "$1 [token]")
    .replace(EMAIL, "[email]")
    .replace(TOKEN, "[token]")
    .replace(LONG_DIGIT_RUN, "[number]");
}

export function maskedLine(text: string, max: number): string {
  const masked = maskPrivateText(text.replace(/[\s\p{Cc}]+/gu, " ").trim());
  return masked.length > max ? `${masked.slice(0, max - 1)}…` : masked;
}

/** Enough to tell two objects apart (the SDK lists them all); sorted, as the SDK sorts them; masked. */
const MAX_KEYS = 20;
const MAX_KEY_LENGTH = 40;

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

export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  try {
    return Object.getPrototypeOf(value)?.constructor?.name || "Object";
  } catch {
    return "Object";
  }
}
