import { OPERATIONAL_PATHS, pathOf } from "~/http/operational-paths";

export const ACCESS_FORMAT =
  ":client :request-id :method :url :status :res[content-length] - :response-time ms";
const ACCESS_LINE =
  /^(?<client>\S+) (?<requestId>\S+) (?<method>[A-Z]+) (?<url>\S+) (?<status>\d{3}|-) (?<length>\S+) - (?<ms>[\d.]+|-) ms$/;

/** For the plain-text lines remix-serve prints (banner, access lines); null drops a line. */
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
