import { createRequestHandler } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { ROOT_DATA_PATH } from "~/routing/data-url";
import { frameworkRefusal } from "./framework-refusals";
import { buildWith } from "./refusal-test-build";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("framework-refusals.ts"));

/**
 * Shape tests of what the framework raises when it refuses a request, run
 * through its own request handler (refusal-test-build.ts). If an upgrade
 * changes a message or an error's shape, these fail instead of a
 * cross-origin post going back to a 500 with a Sentry event.
 */
/** What the framework hands `handleError` for the request, and its status. */
async function raised(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const errors: unknown[] = [];
  const handle = createRequestHandler(
    buildWith((error: unknown) => errors.push(error)),
    "production",
  );
  const request = new Request(`http://app.example${path}`, {
    method: "POST",
    body: "a=1",
    ...init,
    headers: { Host: "app.example", "Content-Type": "application/x-www-form-urlencoded", ...init.headers },
  });
  const response = await handle(request);
  return {
    errors,
    status: response.status,
    refusals: errors.map((error) => frameworkRefusal(error, request)),
  };
}

describe("the framework's refusals", () => {
  it.each([
    ["a document post", "/act"],
    ["a single-fetch post", "/act.data"],
  ])("a cross-origin action (%s) raises an error, which is a 403 refusal", async (_name, path) => {
    const cases: Record<string, string>[] = [
      { Origin: "http://evil.example" },
      { Origin: "http://evil.example", "X-Forwarded-Host": "app.example:8080" },
      { Origin: "null" },
    ];
    for (const headers of cases) {
      const { refusals, status } = await raised(path, { headers });
      // Remix 2 answers 500 (React Router 7 some with 400): the adapter's refusal answer makes it the refusal's status.
      expect(status).toBeGreaterThanOrEqual(400);
      expect(refusals).toEqual([{ status: 403, reason: "cross-origin action" }]);
    }
  });

  it("a malformed Origin on an action raises an error that is a 400 refusal", async () => {
    const { refusals } = await raised("/act", { headers: { Origin: "not a url" } });
    expect(refusals).toEqual([{ status: 400, reason: "malformed Origin header" }]);
  });

  it.each(["/", ROOT_DATA_PATH])(
    "a post to a route without an action (%s) raises a 405, refused with Allow",
    async (path) => {
      const { refusals, status } = await raised(path);
      expect(status).toBe(405);
      expect(refusals).toEqual([
        { status: 405, reason: "method not allowed", headers: { Allow: "GET, HEAD" } },
      ]);
    },
  );

  it("a legacy ?_data request raises nothing but refusals", async () => {
    const { refusals } = await raised("/?_data=root", { method: "GET", body: null });
    for (const refusal of refusals) expect(refusal?.status).toBe(400);
  });

  it("a same-origin action raises nothing, and an action's own error is no refusal", async () => {
    expect((await raised("/act", { headers: { Origin: "http://app.example" } })).errors).toEqual([]);
    const { refusals } = await raised("/fail", { headers: { Origin: "http://app.example" } });
    expect(refusals).toEqual([undefined]);
  });
});
