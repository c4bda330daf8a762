import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "./security-headers.server";

describe("securityHeaders", () => {
  const options = { sentryDsn: "https://public@o1.ingest.example/42", hstsMaxAge: 0 };

  it("sets the policy contentSecurityPolicy builds, with each response's own nonce", () => {
    const apply = securityHeaders(options);
    for (const nonce of ["abc123==", "xyz789=="]) {
      const headers = new Headers();
      apply(headers, nonce);
      expect(headers.get("Content-Security-Policy")).toBe(contentSecurityPolicy({ ...options, nonce }));
      expect(headers.get("Content-Security-Policy")).toContain(`'nonce-${nonce}'`);
      expect(headers.get("X-Frame-Options")).toBe("DENY");
      expect(headers.get("Permissions-Policy")).toBe(
        "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
      );
      expect(headers.has("Strict-Transport-Security")).toBe(false);
    }
  });

  it("adds HSTS only with a positive max-age", () => {
    const headers = new Headers();
    securityHeaders({ hstsMaxAge: 31536000 })(headers, "n");
    expect(headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
  });
});
