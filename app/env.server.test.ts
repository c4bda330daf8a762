import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getPublicEnv, instanceName, loadEnvFile, outboundProxy, parseEnv } from "./env.server";

describe("scaling settings", () => {
  it("defaults: no drain delay, no trusted proxy, the host name as instance", () => {
    const env = parseEnv({});
    expect(env.SHUTDOWN_DRAIN_DELAY_MS).toBe(0);
    expect(env.TRUST_PROXY).toBeUndefined();
    expect(instanceName(env)).toBe(hostname());
    expect(env.BODY_SIZE_LIMIT).toBe(1024 * 1024);
    expect(parseEnv({ BODY_SIZE_LIMIT: "" }).BODY_SIZE_LIMIT).toBe(1024 * 1024);
    expect(parseEnv({}).SENTRY_LOGS_LEVEL).toBe("off");
    expect(parseEnv({ SENTRY_LOGS_LEVEL: "warn" }).SENTRY_LOGS_LEVEL).toBe("warn");
    expect(parseEnv({}).SENTRY_TRACES_PER_SECOND).toBe(20);
    expect(parseEnv({ SENTRY_TRACES_PER_SECOND: "500" }).SENTRY_TRACES_PER_SECOND).toBe(500);
  });

  it.each([
    ["1048576", 1048576],
    ["512K", 512 * 1024],
    ["10m", 10 * 1024 * 1024],
    ["1G", 1024 ** 3],
    [" 2M ", 2 * 1024 * 1024],
  ])("reads BODY_SIZE_LIMIT=%j as %d bytes", (value, bytes) => {
    expect(parseEnv({ BODY_SIZE_LIMIT: value }).BODY_SIZE_LIMIT).toBe(bytes);
  });

  it("PORT and HOST: 3000 and unset by default; host names and IP addresses", () => {
    expect(parseEnv({}).PORT).toBe(3000);
    expect(parseEnv({ PORT: "" }).PORT).toBe(3000);
    expect(parseEnv({ PORT: "8080" }).PORT).toBe(8080);
    expect(parseEnv({}).HOST).toBeUndefined();
    for (const value of ["0.0.0.0", "::", "[::1]", "127.0.0.1", "localhost", "app.internal"])
      expect(parseEnv({ HOST: value }).HOST).toBe(value);
  });

  it("reads them", () => {
    const env = parseEnv({
      SHUTDOWN_DRAIN_DELAY_MS: "5000",
      TRUST_PROXY: "10.0.0.0/8",
      INSTANCE_ID: "web-1",
    });
    expect(env.SHUTDOWN_DRAIN_DELAY_MS).toBe(5000);
    expect(env.TRUST_PROXY).toEqual({ ranges: ["10.0.0.0/8"] });
    expect(instanceName(env)).toBe("web-1");
  });

  it("an outbound proxy: an http(s) URL, https_proxy before http_proxy", () => {
    expect(outboundProxy(parseEnv({}))).toBeUndefined();
    expect(outboundProxy(parseEnv({ http_proxy: "http://10.0.0.1:3128" }))).toBe("http://10.0.0.1:3128");
    const both = parseEnv({ https_proxy: "https://egress.internal", http_proxy: "http://10.0.0.1:3128" });
    expect(outboundProxy(both)).toBe("https://egress.internal");
  });

  const bad: [string, string, RegExp][] = [
    ["SHUTDOWN_DRAIN_DELAY_MS", "5s", /whole number of milliseconds/],
    ["SHUTDOWN_DRAIN_DELAY_MS", "-1", /whole number of milliseconds/],
    ["SHUTDOWN_DRAIN_DELAY_MS", "60001", /from 0 to 60000/],
    ["TRUST_PROXY", "true", /proxy hops or a comma-separated list/],
    ["TRUST_PROXY", "10.0.0.0/40", /proxy hops or a comma-separated list/],
    ["INSTANCE_ID", "web 1", /1 to 128 characters/],
    ["BODY_SIZE_LIMIT", "0", /size in bytes from 1 to 1G/],
    ["BODY_SIZE_LIMIT", "1MB", /size in bytes from 1 to 1G/],
    ["BODY_SIZE_LIMIT", "-5", /size in bytes from 1 to 1G/],
    ["BODY_SIZE_LIMIT", "2G", /size in bytes from 1 to 1G/],
    ["PORT", "http", /whole number from 0 to 65535/],
    ["PORT", "70000", /whole number from 0 to 65535/],
    ["PORT", "3000.5", /whole number from 0 to 65535/],
    ["HOST", "example.com:80", /host name or an IP address/],
    ["HOST", "local host", /host name or an IP address/],
    ["https_proxy", "proxy.internal:3128", /http:\/\/ or https:\/\/ URL/],
    ["http_proxy", "10.0.0.1:3128", /http:\/\/ or https:\/\/ URL/],
    ["SENTRY_LOGS_LEVEL", "on", /one of off, fatal, error, warn, info, debug, trace/],
    ["SENTRY_LOGS_LEVEL", "silent", /one of off, fatal, error, warn, info, debug, trace/],
    ["https_proxy", "socks5://proxy.internal:1080", /http:\/\/ or https:\/\/ URL/],
    ["SENTRY_TRACES_PER_SECOND", "0", /whole number of traces a second from 1/],
    ["SENTRY_TRACES_PER_SECOND", "2.5", /whole number of traces a second from 1/],
    ["SENTRY_TRACES_PER_SECOND", "ten", /whole number of traces a second from 1/],
    ["SENTRY_SPOTLIGHT", "maybe", /on, off or the URL of Spotlight's sidecar/],
    ["SENTRY_SPOTLIGHT", "localhost:8969", /on, off or the URL of Spotlight's sidecar/],
  ];
  for (const [name, value, message] of bad) {
    it(`refuses ${name}=${value} with one line naming it`, () => {
      expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`^Invalid environment: ${name} `));
      expect(() => parseEnv({ [name]: value })).toThrow(message);
    });
  }
});

describe("SENTRY_SPOTLIGHT", () => {
  it("in development: the sidecar's URL, and every request traced unless a rate is set", () => {
    const env = parseEnv({ NODE_ENV: "development", SENTRY_SPOTLIGHT: "1" });
    expect(env.SENTRY_SPOTLIGHT).toBe("http://localhost:8969/stream");
    expect(env.SENTRY_TRACES_SAMPLE_RATE).toBe(1);
    expect(env.SENTRY_TRACES_PER_SECOND).toBe(20);
    const rated = parseEnv({
      NODE_ENV: "development",
      SENTRY_SPOTLIGHT: "1",
      SENTRY_TRACES_SAMPLE_RATE: "0.5",
    });
    expect(rated.SENTRY_TRACES_SAMPLE_RATE).toBe(0.5);
    expect(parseEnv({ NODE_ENV: "development", SENTRY_SPOTLIGHT: "off" }).SENTRY_SPOTLIGHT).toBeUndefined();
  });

  it("anywhere else: read and checked, then dropped, so the server and its pages never name a sidecar", () => {
    for (const NODE_ENV of [undefined, "production", "test"]) {
      const env = parseEnv({ NODE_ENV, SENTRY_SPOTLIGHT: "http://127.0.0.1:8969/stream" });
      expect(env.SENTRY_SPOTLIGHT).toBeUndefined();
      expect(env.SENTRY_TRACES_SAMPLE_RATE).toBe(0.1);
      expect(env.SENTRY_TRACES_PER_SECOND).toBe(20);
      expect(getPublicEnv(env)).not.toHaveProperty("SENTRY_SPOTLIGHT", expect.anything());
    }
  });
});

// Node's loader writes to process.env itself; each test uses names of its own and removes them.
const names = ["ENV_FILE_TEST_ONLY_IN_FILE", "ENV_FILE_TEST_IN_BOTH"];
const dirs: string[] = [];
afterEach(() => {
  names.forEach((name) => delete process.env[name]);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "env-file-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe("loadEnvFile", () => {
  it("reads .env from the working directory; the real environment wins over the file", () => {
    const dir = dirWith({
      ".env": "ENV_FILE_TEST_ONLY_IN_FILE=from-file\nENV_FILE_TEST_IN_BOTH=from-file\n",
    });
    process.env.ENV_FILE_TEST_IN_BOTH = "from-environment";
    expect(loadEnvFile({}, dir)).toBe(".env");
    expect(process.env.ENV_FILE_TEST_ONLY_IN_FILE).toBe("from-file");
    expect(process.env.ENV_FILE_TEST_IN_BOTH).toBe("from-environment");
  });

  it("reads nothing when there is no .env", () => {
    expect(loadEnvFile({}, dirWith({}))).toBeNull();
  });

  it("reads the file ENV_FILE names, and none when it is empty", () => {
    const dir = dirWith({
      "other.env": "ENV_FILE_TEST_ONLY_IN_FILE=other\n",
      ".env": "ENV_FILE_TEST_IN_BOTH=dot\n",
    });
    expect(loadEnvFile({ ENV_FILE: "" }, dir)).toBeNull();
    expect(process.env.ENV_FILE_TEST_IN_BOTH).toBeUndefined();
    expect(loadEnvFile({ ENV_FILE: "other.env" }, dir)).toBe("other.env");
    expect(process.env.ENV_FILE_TEST_ONLY_IN_FILE).toBe("other");
  });

  it("refuses a missing file that ENV_FILE names, with one line naming it", () => {
    expect(() => loadEnvFile({ ENV_FILE: "missing.env" }, dirWith({}))).toThrow(
      "Invalid environment: ENV_FILE names a file that does not exist: missing.env",
    );
  });
});
