import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  createNonce,
  nonceOf,
  recordNonce,
  securityHeaders,
} from "./security-headers.server";

const env = {
  SENTRY_DSN: "https://public@o1.ingest.example/42",
  SENTRY_TUNNEL_ROUTE: undefined,
  SENTRY_SPOTLIGHT: undefined,
  HSTS_MAX_AGE: 0,
};

describe("securityHeaders", () => {
  it("sets the policy contentSecurityPolicy builds, with each response's own nonce", () => {
    const headersWith = securityHeaders(env);
    for (const nonce of ["abc123==", "xyz789=="]) {
      const headers = new Headers(headersWith(nonce));
      expect(headers.get("Content-Security-Policy")).toBe(
        contentSecurityPolicy({ nonce, sentryDsn: env.SENTRY_DSN }),
      );
      expect(headers.get("Content-Security-Policy")).toContain(`'nonce-${nonce}'`);
      expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(headers.get("X-Frame-Options")).toBe("DENY");
      expect(headers.get("Permissions-Policy")).toBe(
        "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
      );
      expect(headers.has("Strict-Transport-Security")).toBe(false);
    }
  });

  it("adds HSTS only with a positive max-age", () => {
    const headers = new Headers(securityHeaders({ ...env, HSTS_MAX_AGE: 31536000 })("n"));
    expect(headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("leaves the ingest origin out of connect-src behind a tunnel", () => {
    const headers = new Headers(securityHeaders({ ...env, SENTRY_TUNNEL_ROUTE: "/monitoring" })("n"));
    expect(headers.get("Content-Security-Policy")).toContain("connect-src 'self';");
  });

  it("lets the browser reach development's Spotlight sidecar, by its origin", () => {
    const spotlight = {
      ...env,
      SENTRY_TUNNEL_ROUTE: "/monitoring",
      SENTRY_SPOTLIGHT: "http://localhost:8969/stream",
    };
    const headers = new Headers(securityHeaders(spotlight)("n"));
    expect(headers.get("Content-Security-Policy")).toContain("connect-src 'self' http://localhost:8969;");
  });
});

describe("createNonce", () => {
  it("gives 16 random bytes in base64, never the same twice, past the pool's refills", () => {
    const nonces = Array.from({ length: 1_000 }, createNonce);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});

describe("nonceOf", () => {
  it("is the nonce recorded for that request, and none for another", () => {
    const request = {} as IncomingMessage;
    recordNonce(request, "abc123==");
    expect(nonceOf(request)).toBe("abc123==");
    expect(nonceOf({} as IncomingMessage)).toBeUndefined();
    expect(nonceOf(undefined)).toBeUndefined();
  });
});
