import { describe, expect, it } from "vitest";
import { toJsonLine } from "./log-lines";

const now = new Date("2026-01-02T03:04:05.000Z");

describe("toJsonLine", () => {
  it("turns a morgan access line into a request record naming instance, request id, trace id and client", () => {
    const line =
      "203.0.113.7 req-0123456789 4bf92f3577b34da6a3ce929d0e0e4736 GET /fixtures/items/1?x=1 200 1234 - 3.456 ms";
    expect(JSON.parse(toJsonLine(line, "web-1", now)!)).toEqual({
      level: "info",
      time: "2026-01-02T03:04:05.000Z",
      instance: "web-1",
      msg: "request",
      requestId: "req-0123456789",
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      client: "203.0.113.7",
      method: "GET",
      url: "/fixtures/items/1?x=1",
      status: 200,
      durationMs: 3.456,
    });
  });

  it("leaves the trace id out when there is none (Sentry off)", () => {
    const record = JSON.parse(toJsonLine("::1 req-0123456789 - GET / 200 1 - 0.5 ms", "web-1", now)!);
    expect(record).toMatchObject({ msg: "request", requestId: "req-0123456789", url: "/" });
    expect(record).not.toHaveProperty("trace_id");
  });

  it("drops health-check access lines", () => {
    expect(toJsonLine("10.0.0.1 id-12345678 - GET /healthz 200 2 - 0.5 ms", "web-1", now)).toBeNull();
    expect(
      toJsonLine("10.0.0.1 id-12345678 - HEAD /healthz?probe=1 200 - - 0.5 ms", "web-1", now),
    ).toBeNull();
    expect(toJsonLine("10.0.0.1 id-12345678 - GET /readyz 503 8 - 0.5 ms", "web-1", now)).toBeNull();
  });

  it("wraps any other plain text line", () => {
    expect(JSON.parse(toJsonLine("[remix-serve] http://localhost:3000", "web-1", now)!)).toMatchObject({
      level: "info",
      instance: "web-1",
      msg: "[remix-serve] http://localhost:3000",
    });
  });

  it("wraps a line that only looks like JSON", () => {
    expect(JSON.parse(toJsonLine("{not json", "web-1", now)!)).toMatchObject({
      level: "info",
      msg: "{not json",
    });
  });

  it("passes JSON lines through unchanged", () => {
    const line = '{"level":"error","digest":"0123456789ab"}';
    expect(toJsonLine(line, "web-1", now)).toBe(line);
  });
});
