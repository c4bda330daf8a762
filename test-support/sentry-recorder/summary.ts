/**
 * One-line summaries of recorded items: the CLI's output and what a wait that
 * timed out lists as seen.
 */
import { isRecord, type EnvelopeItem } from "./envelope";

/**
 * One-line, human-oriented summary of an item, e.g.
 * `event [error] TypeError: boom digest=123` or `transaction GET /x op=http.server spans=3`.
 */
export function summarizeItem(item: EnvelopeItem): string {
  const p: unknown = item.payload;
  // Binary or non-object payloads (attachments, replays...): name and size are all we can say.
  if (!isRecord(p) || Buffer.isBuffer(p)) {
    return oneLine(join(item.type, str(item.header.filename), `(${item.raw.length} bytes)`));
  }
  const detail = SUMMARIZERS[item.type]?.(p);
  return oneLine(join(item.type, detail));
}

type Summarizer = (payload: Record<string, unknown>) => string | undefined;

const SUMMARIZERS: Record<string, Summarizer> = {
  event: summarizeEvent,
  transaction: (p) => {
    const trace = traceContext(p);
    const spans = Array.isArray(p.spans) ? p.spans.length : 0;
    return join(str(p.transaction) ?? "(unnamed)", kv("op", trace?.op), `spans=${spans}`);
  },
  feedback: (p) => {
    const contexts = isRecord(p.contexts) ? p.contexts : {};
    const feedback = isRecord(contexts.feedback) ? contexts.feedback : {};
    return quote(str(feedback.message));
  },
  session: (p) => join(kv("status", p.status), kv("errors", p.errors)),
  sessions: (p) => `aggregates=${Array.isArray(p.aggregates) ? p.aggregates.length : 0}`,
  client_report: (p) => {
    const discarded = Array.isArray(p.discarded_events) ? p.discarded_events : [];
    return discarded
      .filter(isRecord)
      .map((d) => `${String(d.reason)}:${String(d.category)}=${String(d.quantity)}`)
      .join(" ");
  },
  check_in: (p) => join(str(p.monitor_slug), kv("status", p.status)),
  span: (p) => join(str(p.name) ?? str(p.description), kv("op", p.op)),
  log: (p) => `items=${Array.isArray(p.items) ? p.items.length : 1}`,
  csp_report: (p) => {
    const report = isRecord(p["csp-report"]) ? p["csp-report"] : p;
    return join(
      str(report["violated-directive"]) ?? str(report["effective-directive"]),
      kv("blocked", report["blocked-uri"]),
    );
  },
};

/** Level, the main exception (last in `exception.values`) or message, and the Remix error digest tag. */
function summarizeEvent(p: Record<string, unknown>): string {
  const exceptions = isRecord(p.exception) && Array.isArray(p.exception.values) ? p.exception.values : [];
  const main: unknown = exceptions[exceptions.length - 1];
  let what: string | undefined;
  if (isRecord(main)) {
    what = [str(main.type), str(main.value)].filter(Boolean).join(": ");
  } else {
    const logentry = isRecord(p.logentry) ? p.logentry : {};
    what = quote(str(p.message) ?? str(logentry.formatted) ?? str(logentry.message));
  }
  return join(`[${str(p.level) ?? "error"}]`, what, kv("digest", tagValue(p.tags, "digest")));
}

/** Tags are an object in modern SDKs, but the protocol also allows `[key, value]` pairs. */
function tagValue(tags: unknown, name: string): unknown {
  if (Array.isArray(tags)) {
    const pair: unknown = tags.find((t) => Array.isArray(t) && t[0] === name);
    return Array.isArray(pair) ? pair[1] : undefined;
  }
  return isRecord(tags) ? tags[name] : undefined;
}

function traceContext(p: Record<string, unknown>): Record<string, unknown> | undefined {
  return isRecord(p.contexts) && isRecord(p.contexts.trace) ? p.contexts.trace : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function kv(key: string, value: unknown): string | undefined {
  return value === undefined || value === null || value === "" ? undefined : `${key}=${String(value)}`;
}

function quote(value: string | undefined): string | undefined {
  return value === undefined ? undefined : JSON.stringify(truncate(value));
}

function join(...parts: Array<string | undefined>): string {
  return parts.filter((part) => part !== undefined && part !== "").join(" ");
}

function truncate(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Summaries must stay on one line: exception values often contain newlines. */
function oneLine(text: string): string {
  return truncate(text.replace(/\s*[\r\n]+\s*/g, " ⏎ "), 240);
}
