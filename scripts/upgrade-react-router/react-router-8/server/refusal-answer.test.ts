import { describe, expect, it } from "vitest";
import { refusalAnswer } from "./refusal-answer";

const crossOrigin = { status: 403, reason: "cross-origin action" };

describe("refusalAnswer", () => {
  it("replaces the framework's bare 500 with the refusal's status and a short text", async () => {
    const framework = new Response("", {
      status: 500,
      headers: { "Content-Type": "text/html", "Content-Length": "0", "X-Request-Id": "abc" },
    });
    const answer = refusalAnswer(framework, crossOrigin);
    expect(answer.status).toBe(403);
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("x-request-id")).toBe("abc");
    expect(await answer.text()).toBe("403 Forbidden: cross-origin action\n");
  });

  it("keeps the framework's answer when it already has the refusal's status, adding its headers", async () => {
    const framework = new Response("<h1>405</h1>", { status: 405, headers: { "Content-Type": "text/html" } });
    const answer = refusalAnswer(framework, {
      status: 405,
      reason: "method",
      headers: { Allow: "GET, HEAD" },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD");
    expect(await answer.text()).toBe("<h1>405</h1>");
  });

  it("keeps a single fetch's encoding, with the refusal's status", async () => {
    const framework = new Response("[encoded]", {
      status: 400,
      headers: { "Content-Type": "text/x-script" },
    });
    const answer = refusalAnswer(framework, crossOrigin);
    expect([answer.status, answer.headers.get("content-type"), await answer.text()]).toEqual([
      403,
      "text/x-script",
      "[encoded]",
    ]);
  });

  it("leaves a success alone", async () => {
    const answer = refusalAnswer(new Response("ok", { status: 200 }), crossOrigin);
    expect([answer.status, await answer.text()]).toEqual([200, "ok"]);
  });
});
