import { data } from "@remix-run/node";

/**
 * A thrown 5xx answer as the Error that is logged and reported, in its status
 * text's and body's words. The body may name a user: one bounded line, e-mail
 * addresses and long digit runs (card, phone, account numbers) masked, HTML never read.
 */
export class ThrownResponse extends Error {
  override name = "ThrownResponse";
}

const DataWithResponseInit = data(null).constructor;

export interface ThrownData {
  data: unknown;
  init: ResponseInit | null;
}

export function isThrownData(thrown: unknown): thrown is ThrownData {
  return thrown instanceof DataWithResponseInit;
}

/** The framework's default is 200. */
export function statusOfThrownData(thrown: ThrownData): number {
  return thrown.init?.status ?? 200;
}

/** Enough for a sentence, too short for a record. */
export const MAX_BODY_WORDS = 200;

/** The rest of a long or endless stream is never awaited. */
const BODY_READ_LIMIT = 2_048;

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;
const LONG_DIGIT_RUN = /\d(?:[\s-]?\d){7,}/g;
const CONTROL_AND_SPACE = /[\s\p{Cc}]+/gu;
/** A body that says nothing: an empty JSON object, array, string or null. */
const EMPTY_BODY = /^(?:\{\s*\}|\[\s*\]|""|null)?$/;

export function renderBody(text: string): string {
  const line = text.replace(CONTROL_AND_SPACE, " ").trim();
  if (EMPTY_BODY.test(line)) return "";
  const masked = line.replace(EMAIL, "[email]").replace(LONG_DIGIT_RUN, "[number]");
  return masked.length > MAX_BODY_WORDS ? `${masked.slice(0, MAX_BODY_WORDS - 1)}…` : masked;
}

function thrownResponse(status: number, statusText: string | undefined, body: string): ThrownResponse {
  const words = [renderBody(statusText ?? ""), renderBody(body)].filter(Boolean).join(": ");
  return new ThrownResponse(words || `${status} Response`);
}

/** From a clone, so the framework's copy stays unread. */
async function bodyStart(response: Response): Promise<string> {
  const type = response.headers.get("content-type") ?? "";
  if (!response.body || response.bodyUsed || /html/i.test(type)) return "";
  const reader = response.clone().body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < BODY_READ_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Left unsaid; the status still is.
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text.slice(0, BODY_READ_LIMIT);
}

export async function responseError(response: Response): Promise<ThrownResponse> {
  return thrownResponse(response.status, response.statusText, await bodyStart(response));
}

export function thrownDataError(thrown: ThrownData): ThrownResponse {
  let text = "";
  try {
    text = typeof thrown.data === "string" ? thrown.data : (JSON.stringify(thrown.data) ?? "");
  } catch {
    // Data JSON cannot write (a cycle, a BigInt) is left unsaid.
  }
  return thrownResponse(statusOfThrownData(thrown), thrown.init?.statusText, text.slice(0, BODY_READ_LIMIT));
}
