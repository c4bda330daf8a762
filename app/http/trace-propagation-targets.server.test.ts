import { shouldPropagateTraceForUrl } from "@sentry/core";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import { listeningOn, tracePropagationTargets } from "./trace-propagation-targets.server";

/** Decided by the SDK's own matcher, as for a real outgoing request. */
function propagates(setting: string | undefined, url: string, port = "3000"): boolean {
  const env = parseEnv({ SENTRY_TRACE_PROPAGATION_TARGETS: setting, PORT: port });
  return shouldPropagateTraceForUrl(url, tracePropagationTargets(env));
}

describe("SENTRY_TRACE_PROPAGATION_TARGETS", () => {
  it("reads origins and URL prefixes, normalised", () => {
    const env = parseEnv({
      SENTRY_TRACE_PROPAGATION_TARGETS: " HTTPS://API.example.com:443 , http://auth.internal:8080/v2/ ,",
    });
    expect(env.SENTRY_TRACE_PROPAGATION_TARGETS).toEqual([
      "https://api.example.com/",
      "http://auth.internal:8080/v2/",
    ]);
  });

  it.each([
    ["https://api.example.com", "https://api.example.com/items/7?x=1", true],
    ["https://api.example.com", "https://api.example.com", true],
    ["https://api.example.com", "https://api.example.com:443/items", true],
    ["https://api.example.com", "http://api.example.com/items", false],
    ["https://api.example.com", "https://api.example.com.evil.test/items", false],
    ["https://api.example.com", "https://evil.test/?next=https://api.example.com/", false],
    ["https://api.example.com", "https://api.example.com:8443/items", false],
    ["http://127.0.0.1:8080", "http://127.0.0.1:80800/", false],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/a", true],
    ["https://api.example.com/v2", "https://api.example.com/v2/items", true],
    ["https://api.example.com/v2", "https://api.example.com/v2?x=1", true],
    ["https://api.example.com/v2", "https://api.example.com/v20/items", false],
    ["https://api.example.com/v2", "https://api.example.com/items", false],
    ["https://api.example.com/v2/", "https://api.example.com/v2/items", true],
    ["https://a.example.com,https://b.example.com", "https://b.example.com/x", true],
  ])("%s: %s propagates: %s", (setting, url, expected) => {
    expect(propagates(setting, url)).toBe(expected);
  });

  it("default: the app itself over loopback on its PORT, nothing else", () => {
    for (const unset of [undefined, "", "  "]) {
      expect(propagates(unset, "http://localhost:3000/items")).toBe(true);
      expect(propagates(unset, "http://127.0.0.1:3000/items")).toBe(true);
      expect(propagates(unset, "http://[::1]:3000/items")).toBe(true);
      expect(propagates(unset, "http://127.0.0.1:3001/items")).toBe(false);
      expect(propagates(unset, "https://api.example.com/items")).toBe(false);
    }
  });

  it("default with PORT=0: the app itself once it listens, on the port it got", () => {
    const targets = tracePropagationTargets(parseEnv({ PORT: "0" }));
    expect(shouldPropagateTraceForUrl("http://127.0.0.1:43210/items", targets)).toBe(false);
    listeningOn(43210);
    expect(shouldPropagateTraceForUrl("http://127.0.0.1:43210/items", targets)).toBe(true);
    expect(shouldPropagateTraceForUrl("http://localhost:43210/items", targets)).toBe(true);
    expect(shouldPropagateTraceForUrl("http://127.0.0.1:3000/items", targets)).toBe(false);
    // A second server of the process (Vite's, a test's) does not widen it.
    listeningOn(43211);
    expect(shouldPropagateTraceForUrl("http://127.0.0.1:43211/items", targets)).toBe(false);
  });

  it("a configured list is never widened by the port", () => {
    const targets = tracePropagationTargets(
      parseEnv({ PORT: "0", SENTRY_TRACE_PROPAGATION_TARGETS: "https://api.example.com" }),
    );
    listeningOn(43210);
    expect(shouldPropagateTraceForUrl("http://127.0.0.1:43210/items", targets)).toBe(false);
  });

  it.each([
    "api.example.com",
    "/api",
    "ftp://files.example.com",
    "https://*.example.com",
    "https://api.example.com/?x=1",
    "https://api.example.com/#top",
    "https://user:secret@api.example.com",
    "^https://api\\.example\\.com",
    "https://api.example.com, not a url",
    ",",
  ])("refuses %j with one line naming the variable", (value) => {
    expect(() => parseEnv({ SENTRY_TRACE_PROPAGATION_TARGETS: value })).toThrow(
      /^Invalid environment: SENTRY_TRACE_PROPAGATION_TARGETS must be a comma-separated list of http:\/\/ or https:\/\/ origins/,
    );
  });
});
