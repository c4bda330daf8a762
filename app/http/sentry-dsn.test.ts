import { describe, expect, it } from "vitest";
import { envelopeEndpoint, parseDsn, sameProject, securityEndpoint } from "./sentry-dsn";

describe("parseDsn", () => {
  it("reads the parts of a DSN", () => {
    expect(parseDsn("https://abc@o1.ingest.sentry.io/42")).toEqual({
      protocol: "https:",
      host: "o1.ingest.sentry.io",
      path: "",
      projectId: "42",
      publicKey: "abc",
    });
    expect(parseDsn("http://k@127.0.0.1:9000/sub/path/7")).toMatchObject({
      host: "127.0.0.1:9000",
      path: "sub/path",
      projectId: "7",
    });
  });

  it("refuses what is not a DSN", () => {
    for (const value of [
      "",
      "nope",
      "https://host/1",
      "https://k@host/",
      "https://k@host/abc",
      "ftp://k@host/1",
      42,
      null,
    ]) {
      expect(parseDsn(value)).toBeUndefined();
    }
  });
});

describe("endpoints", () => {
  const dsn = parseDsn("https://abc@o1.ingest.example/prefix/42")!;
  it("builds the envelope and security endpoints", () => {
    expect(envelopeEndpoint(dsn)).toBe(
      "https://o1.ingest.example/prefix/api/42/envelope/?sentry_key=abc&sentry_version=7",
    );
    expect(securityEndpoint(dsn)).toBe("https://o1.ingest.example/prefix/api/42/security/?sentry_key=abc");
  });
});

describe("sameProject", () => {
  const configured = parseDsn("https://abc@o1.ingest.example/42")!;
  it("matches on host, project and key only", () => {
    expect(sameProject(configured, parseDsn("http://abc@o1.ingest.example/42")!)).toBe(true);
    expect(sameProject(configured, parseDsn("https://abc:secret@o1.ingest.example/42")!)).toBe(true);
    expect(sameProject(configured, parseDsn("https://abc@evil.example/42")!)).toBe(false);
    expect(sameProject(configured, parseDsn("https://abc@o1.ingest.example/43")!)).toBe(false);
    expect(sameProject(configured, parseDsn("https://xyz@o1.ingest.example/42")!)).toBe(false);
  });
});
