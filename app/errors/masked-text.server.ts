/**
 * Masks the shapes of private values a message can be checked for: e-mail
 * addresses, long digit runs (card, phone, account numbers, spaced or not) and
 * tokens. Names and street addresses have no shape: they must stay out of messages.
 */
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

const CONTROL_AND_SPACE = /[\s\p{Cc}]+/gu;

/** One masked line of at most `max` characters. */
export function maskedLine(text: string, max: number): string {
  const masked = maskPrivateText(text.replace(CONTROL_AND_SPACE, " ").trim());
  return masked.length > max ? `${masked.slice(0, max - 1)}…` : masked;
}
