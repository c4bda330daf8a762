import { OPERATIONAL_PATHS, pathOf } from "~/http/operational-paths";
import { isJsonLine, plainJsonLine } from "./json-stdout";

export const ACCESS_FORMAT =
  ":client :request-id :trace-id :method :url :status :res[content-length] - :response-time ms";
const ACCESS_LINE =
  /^(?<client>\S+) (?<requestId>\S+) (?<traceId>\S+) (?<method>[A-Z]+) (?<url>\S+) (?<status>\d{3}|-) (?<length>\S+) - (?<ms>[\d.]+|-) ms$/;

/** For the plain-text lines remix-serve prints (banner, access lines) and stray output; null drops a line. */
export function toJsonLine(line: string, instance: string, now: Date = new Date()): string | null {
  if (isJsonLine(line)) return line;
  const time = now.toISOString();
  const access = ACCESS_LINE.exec(line)?.groups;
  if (access) {
    if (OPERATIONAL_PATHS.includes(pathOf(access.url!))) return null;
    return JSON.stringify({
      level: "info",
      time,
      instance,
      msg: "request",
      requestId: access.requestId,
      trace_id: access.traceId === "-" ? undefined : access.traceId,
      client: access.client,
      method: access.method,
      url: access.url,
      status: Number(access.status) || undefined,
      durationMs: Number(access.ms) || undefined,
    });
  }
  return plainJsonLine(line, instance, "info", now);
}
