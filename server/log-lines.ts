/** The JSON record for one plain-text line remix-serve prints (banner, access lines); health checks are dropped. */
import { OPERATIONAL_PATHS, pathOf } from "~/http/operational-paths";

/** The access line: morgan's "tiny" with the client address and the request id in front. */
export const ACCESS_FORMAT =
  ":client :request-id :method :url :status :res[content-length] - :response-time ms";
const ACCESS_LINE =
  /^(?<client>\S+) (?<requestId>\S+) (?<method>[A-Z]+) (?<url>\S+) (?<status>\d{3}|-) (?<length>\S+) - (?<ms>[\d.]+|-) ms$/;

/** The JSON line for one plain-text line, or null to drop it. Lines that already are JSON pass unchanged. */
export function toJsonLine(line: string, instance: string, now: Date = new Date()): string | null {
  if (line.startsWith("{")) return line;
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
      client: access.client,
      method: access.method,
      url: access.url,
      status: Number(access.status) || undefined,
      durationMs: Number(access.ms) || undefined,
    });
  }
  return JSON.stringify({ level: "info", time, instance, msg: line });
}
