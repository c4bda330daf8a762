import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getLogger } from "~/logging/logger.server";
import { runInRequestScope } from "~/request-scope.server";
import {
  refusalAnswerOver,
  refusalText,
  refuseBeforeApp,
  refuseRequest,
  type Refusal,
} from "./refusals.server";

const crossOrigin: Refusal = { status: 403, reason: "cross-origin action" };

/** The `request refused` lines written while `run` runs. */
function refusalLines(run: () => void): object[] {
  const info = vi.spyOn(getLogger(), "info");
  run();
  return info.mock.calls.filter((call) => call[1] === "request refused").map((call) => call[0] as object);
}

afterEach(() => vi.restoreAllMocks());

describe("refuseRequest", () => {
  it("logs and answers a request once, though the framework may report it per route", () => {
    const answered: unknown[] = [];
    const request = new Request("http://app.example/act?x=1", { method: "POST" });
    const lines = refusalLines(() =>
      runInRequestScope(
        "/act.data?x=1",
        () => {
          refuseRequest(request, crossOrigin);
          refuseRequest(request, { status: 400, reason: "second" });
        },
        { answerRefusal: (refusal) => answered.push(refusal) },
      ),
    );
    expect(answered).toEqual([crossOrigin]);
    expect(lines).toEqual([
      expect.objectContaining({
        method: "POST",
        path: "/act.data",
        status: 403,
        reason: "cross-origin action",
      }),
    ]);
    expect(lines[0]).toHaveProperty("requestId", expect.any(String));
  });
});

describe("refuseBeforeApp", () => {
  it("answers with its short text and writes the same line, the path cut to 512 characters", () => {
    const written: unknown[] = [];
    const response = {
      writeHead: (...args: unknown[]) => written.push(args),
      end: (text: string) => written.push(text),
    } as unknown as ServerResponse;
    const request = { method: "TRACE", url: `/${"a".repeat(600)}?q`, headers: {} } as IncomingMessage;
    const lines = refusalLines(() =>
      refuseBeforeApp(request, response, {
        status: 405,
        reason: "method not allowed",
        text: "Method Not Allowed",
        headers: { Allow: "GET" },
      }),
    );
    expect(written).toEqual([
      [405, { "Content-Type": "text/plain; charset=utf-8", Allow: "GET" }],
      "Method Not Allowed",
    ]);
    expect(lines).toEqual([
      expect.objectContaining({
        method: "TRACE",
        path: `/${"a".repeat(511)}`,
        status: 405,
        reason: "method not allowed",
      }),
    ]);
  });
});

describe("the answer over the framework's", () => {
  it.each([
    [200, "text/html", "framework"],
    [403, "text/html", "framework"],
    [500, "text/x-script", "status"],
    [500, "text/html", "text"],
    [405, "", "text"],
  ])("framework %i %j: %s", (status, contentType, answer) =>
    expect(refusalAnswerOver(status, contentType, crossOrigin)).toBe(answer),
  );

  it("says the status and what the client got wrong", () =>
    expect(refusalText(crossOrigin)).toBe("403 Forbidden: cross-origin action\n"));
});
