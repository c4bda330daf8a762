/**
 * The records of Sentry `log` items (SDK 11: one item of content type
 * `application/vnd.sentry.items.log+json`, `{ version, items: [...] }`), with
 * their typed attributes (`{ value, type }`) read as plain values.
 */
import { isRecord, type EnvelopeItem } from "./envelope";

export interface LogRecord {
  level: string;
  body: string;
  trace_id?: string;
  span_id?: string;
  attributes: Record<string, unknown>;
}

export function logRecordsOf(item: EnvelopeItem): LogRecord[] {
  if (item.type !== "log" || !isRecord(item.payload) || !Array.isArray(item.payload.items)) return [];
  return item.payload.items.filter(isRecord).map((record) => ({
    level: String(record.level),
    body: String(record.body),
    ...(typeof record.trace_id === "string" && { trace_id: record.trace_id }),
    ...(typeof record.span_id === "string" && { span_id: record.span_id }),
    attributes: Object.fromEntries(
      Object.entries(isRecord(record.attributes) ? record.attributes : {}).map(([key, attribute]) => [
        key,
        isRecord(attribute) && "value" in attribute ? attribute.value : attribute,
      ]),
    ),
  }));
}

/** Every log record of the given items, in order. */
export const logRecords = (items: EnvelopeItem[]): LogRecord[] => items.flatMap(logRecordsOf);
