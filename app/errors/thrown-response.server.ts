import { data } from "@remix-run/node";
import { REPORT_OPTIONS, type ReportOptions } from "./report-options";
import { keysForMessage, keysOf, kindOf, maskedLine } from "~/privacy/masking";
import { reportServerFailure } from "./server-failure.server";

/** A thrown 5xx `Response` or `data()`, which the framework hands to nobody: by its shape, not its data. */
export async function reportThrownAnswer(thrown: unknown, { request }: { request: Request }): Promise<void> {
  if (request.signal.aborted) return;
  const cause =
    thrown instanceof Response ? await responseError(thrown) : thrownDataError(thrown as ThrownData);
  reportServerFailure(cause, request, { status: cause.answer.status, answer: cause.answer });
}

/** `contentType`: a media type, or a kind of value for `data()`; `length`: bytes, characters or items. */
export interface ThrownAnswer {
  status: number;
  statusText?: string;
  contentType?: string;
  length?: number;
  truncated?: true;
  keys?: string[];
  body?: string;
}

/** Its message, the event's title, stays the same for the same failure, so events group. */
export class ThrownResponse extends Error {
  override name = "ThrownResponse";
  constructor(readonly answer: ThrownAnswer) {
    super(messageOf(answer));
  }
}

function messageOf({ status, statusText, keys, contentType }: ThrownAnswer): string {
  const head = `${status} ${statusText || "Response"}`;
  if (keys) return `${head}, body with keys: ${keysForMessage(keys)}`;
  return contentType ? `${head}, ${contentType} body` : head;
}

const DataWithResponseInit = data(null).constructor;

export interface ThrownData {
  data: unknown;
  init: ResponseInit | null;
}

export function isThrownData(thrown: unknown): thrown is ThrownData {
  return thrown instanceof DataWithResponseInit;
}

export function statusOfThrownData(thrown: ThrownData): number {
  return thrown.init?.status ?? 200; // The framework's default.
}

/** The opted-in body's length: enough for a sentence, too short for a record. */
export const MAX_BODY_WORDS = 200;

/** Enough for a JSON error's keys; the rest of a long or endless stream is never awaited. */
const BODY_READ_LIMIT = 65_536;

/** The status text is the team's words, yet may name a user: masked, one line. */
const statusTextOf = (text: string | undefined) => maskedLine(text ?? "", MAX_BODY_WORDS) || undefined;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  const prototype = value !== null && typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  return prototype === Object.prototype || prototype === null;
}

const EMPTY_BODY = /^(?:\{\s*\}|\[\s*\]|""|null)?$/;

function jsonKeys(text: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? keysOf(parsed) : undefined;
  } catch {
    return undefined;
  }
}

async function readBody(response: Response): Promise<{ text: string; length: number; truncated: boolean }> {
  const reader = response.clone().body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let length = 0;
  let truncated = false;
  try {
    while (!(truncated = length >= BODY_READ_LIMIT)) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    truncated = true; // Left unsaid; the status still is.
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return { text, length, truncated };
}

export async function responseError(
  response: Response,
  options: ReportOptions = REPORT_OPTIONS,
): Promise<ThrownResponse> {
  const answer: ThrownAnswer = { status: response.status, statusText: statusTextOf(response.statusText) };
  const contentType = response.headers.get("content-type")?.split(";")[0]?.trim().slice(0, 100);
  if (!response.body || response.bodyUsed) return new ThrownResponse(answer);
  answer.contentType = contentType || "unknown";
  // An HTML page is never read: its length, when the header says.
  if (/html/i.test(contentType ?? "")) {
    const declared = Number(response.headers.get("content-length") ?? NaN);
    return new ThrownResponse(Number.isFinite(declared) ? { ...answer, length: declared } : answer);
  }
  const { text, length, truncated } = await readBody(response);
  // As data() says it, after the upgrade: an empty body, object, array or string is no body.
  if (EMPTY_BODY.test(text.trim()))
    return new ThrownResponse({ status: answer.status, statusText: answer.statusText });
  answer.length = length;
  if (truncated) answer.truncated = true;
  const keys = truncated ? undefined : jsonKeys(text);
  if (keys?.length) answer.keys = keys;
  if (options.thrownBodies && length > 0) answer.body = maskedLine(text, MAX_BODY_WORDS);
  return new ThrownResponse(answer);
}

export function thrownDataError(thrown: ThrownData, options: ReportOptions = REPORT_OPTIONS): ThrownResponse {
  const value = thrown.data;
  const answer: ThrownAnswer = {
    status: statusOfThrownData(thrown),
    statusText: statusTextOf(thrown.init?.statusText),
  };
  if (isEmptyValue(value)) return new ThrownResponse(answer);
  if (isPlainObject(value)) answer.keys = keysOf(value);
  else answer.contentType = kindOf(value);
  if (typeof value === "string" || Array.isArray(value)) answer.length = value.length;
  if (options.thrownBodies) answer.body = maskedLine(jsonText(value), MAX_BODY_WORDS);
  return new ThrownResponse(answer);
}

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  return (Array.isArray(value) || isPlainObject(value)) && Object.keys(value).length === 0;
}

function jsonText(value: unknown): string {
  try {
    return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  } catch {
    return ""; // A cycle or a BigInt is left unsaid.
  }
}
