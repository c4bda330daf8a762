import { data, redirect } from "@remix-run/node";
import type { z } from "zod";
import { refuseRequest } from "~/refusals.server";
import { DISCARD_AFTER_REFUSAL_BYTES, discardBody } from "~/http/request-body.server";
import { safeRedirectPath } from "~/http/safe-redirect";
import { serverSdk } from "~/monitoring/server-sdk.server";

/** A failed validation is expected: no log line, no event, fields named only (docs/adding-a-route.md). */

export const DEFAULT_MAX_FORM_BYTES = 100 * 1024;

export interface ParseFormOptions {
  /** Checked against Content-Length and against the bytes read (chunked bodies declare none). */
  maxBytes?: number;
}

export type FieldName<S extends z.ZodObject> = Extract<keyof S["shape"], string>;

export interface FormFailure<Name extends string = string> {
  errors: Partial<Record<Name, string[]>>;
  /** Object-level rules that name no field (a `refine` without `path`). */
  formErrors: string[];
  /** Text only, to refill the form: files are never sent back. */
  values: Partial<Record<Name, string | string[]>>;
}

export type FormSubmission<S extends z.ZodObject> =
  { ok: true; value: z.output<S> } | { ok: false; reply: ReturnType<typeof data<FormFailure<FieldName<S>>>> };

export function redirectAfterSubmit(target: unknown, fallback: string): Response {
  return redirect(safeRedirectPath(target, fallback));
}

export type FormOutcome =
  "valid" | "invalid" | "too_large" | "unsupported_media_type" | "malformed" | "duplicate_field";

const FORM_CONTENT_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

export async function parseForm<S extends z.ZodObject>(
  request: Request,
  schema: S,
  { maxBytes = DEFAULT_MAX_FORM_BYTES }: ParseFormOptions = {},
): Promise<FormSubmission<S>> {
  const formData = await readFormData(request, maxBytes);
  const input = formInput(request, formData, schema);
  const result = await schema.safeParseAsync(input.fields);
  if (result.success) {
    recordOutcome("valid");
    return { ok: true, value: result.data };
  }

  const errors: Partial<Record<FieldName<S>, string[]>> = {};
  const formErrors: string[] = [];
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === "string" && field in schema.shape) {
      (errors[field as FieldName<S>] ??= []).push(issue.message);
    } else {
      formErrors.push(issue.message);
    }
  }
  const invalidFields = Object.keys(errors).sort();
  recordOutcome("invalid", invalidFields);
  return {
    ok: false,
    reply: data({ errors, formErrors, values: input.values as FormFailure<FieldName<S>>["values"] }, 400),
  };
}

function recordOutcome(outcome: FormOutcome, invalidFields?: string[]): void {
  const span = serverSdk()?.node.getActiveSpan();
  if (!span) return;
  span.setAttribute("form.outcome", outcome);
  if (invalidFields) span.setAttribute("form.invalid_fields", invalidFields.join(","));
}

function refuse(request: Request, status: 400 | 413 | 415, outcome: FormOutcome, statusText: string): never {
  recordOutcome(outcome);
  refuseRequest(request, { status, reason: `form ${outcome.replaceAll("_", " ")}` });
  throw new Response(null, { status, statusText });
}

async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const contentType = request.headers.get("Content-Type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (!FORM_CONTENT_TYPES.has(mediaType))
    refuse(request, 415, "unsupported_media_type", "Unsupported Media Type");

  const body = await readBody(request, maxBytes);

  if (mediaType === "application/x-www-form-urlencoded") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      refuse(request, 400, "malformed", "Bad Request");
    }
    const formData = new FormData();
    for (const [key, value] of new URLSearchParams(text)) formData.append(key, value);
    return formData;
  }
  try {
    return await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    refuse(request, 400, "malformed", "Bad Request");
  }
}

async function readBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > maxBytes) tooLarge(request, reader);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      refuse(request, 400, "malformed", "Bad Request");
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > maxBytes) tooLarge(request, reader);
    chunks.push(chunk.value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function tooLarge(request: Request, reader: ReadableStreamDefaultReader<Uint8Array>): never {
  void discardBody(reader, DISCARD_AFTER_REFUSAL_BYTES);
  refuse(request, 413, "too_large", "Payload Too Large");
}

/** An array field (under optional/default/… wrappers) takes every value submitted. */
function isArrayField(field: z.ZodType): boolean {
  let def = field._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  for (;;) {
    if (def.type === "array") return true;
    const inner = def.type === "pipe" ? def.in : def.innerType;
    if (!inner) return false;
    def = inner._zod.def as typeof def;
  }
}

/** A blank text input submits "", a blank file input an empty, nameless file. */
function isBlank(value: FormDataEntryValue): boolean {
  return value === "" || (typeof value !== "string" && value.name === "" && value.size === 0);
}

/** Blanks become `undefined` (`.optional()`: may be left empty); a single-valued field sent twice is refused, not guessed. */
function formInput(request: Request, formData: FormData, schema: z.ZodObject) {
  const fields: Record<string, unknown> = {};
  const values: Record<string, string | string[]> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const submitted = formData.getAll(name).filter((value) => !isBlank(value));
    const text = formData.getAll(name).filter((value): value is string => typeof value === "string");
    if (isArrayField(field as z.ZodType)) {
      fields[name] = submitted;
      if (text.length > 0) values[name] = text;
      continue;
    }
    if (formData.getAll(name).length > 1) refuse(request, 400, "duplicate_field", "Bad Request");
    fields[name] = submitted[0];
    if (text[0] !== undefined) values[name] = text[0];
  }
  return { fields, values };
}
