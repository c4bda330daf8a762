import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddress, normalizeAddress, parseTrustProxy, trustFunction } from "./trust-proxy.server";

const request = (peer: string, forwardedFor?: string | string[]) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  }) as unknown as IncomingMessage;

const client = (setting: string | undefined, peer: string, forwardedFor?: string | string[]) =>
  clientAddress(request(peer, forwardedFor), trustFunction(setting ? parseTrustProxy(setting) : undefined));

describe("parseTrustProxy", () => {
  it("reads a hop count, addresses, CIDR ranges and Express's range names", () => {
    expect(parseTrustProxy("1")).toEqual({ hops: 1 });
    expect(parseTrustProxy(" 10.0.0.0/8, 192.168.1.2 ,fd00::/8")).toEqual({
      ranges: ["10.0.0.0/8", "192.168.1.2", "fd00::/8"],
    });
    expect(parseTrustProxy("loopback")).toEqual({ ranges: ["127.0.0.1/8", "::1/128"] });
  });

  it("refuses anything else", () => {
    for (const bad of [
      "",
      "yes",
      "true",
      "-1",
      "1.5",
      "10.0.0.0/33",
      "::1/129",
      "10.0.0/8",
      "10.0.0.1/8/1",
      "a,b",
    ]) {
      expect(parseTrustProxy(bad), bad).toBeUndefined();
    }
  });
});

describe("clientAddress", () => {
  it("trusting no one: the socket's peer, whatever X-Forwarded-For claims", () => {
    expect(client(undefined, "198.51.100.4", "1.2.3.4")).toBe("198.51.100.4");
    expect(client("0", "198.51.100.4", "1.2.3.4")).toBe("198.51.100.4");
  });

  it("one hop: the address the proxy saw, not what the client prepended", () => {
    expect(client("1", "10.0.0.5", "6.6.6.6, 203.0.113.9")).toBe("203.0.113.9");
    expect(client("1", "10.0.0.5", ["6.6.6.6", "203.0.113.9"])).toBe("203.0.113.9");
    expect(client("2", "10.0.0.5", "6.6.6.6, 203.0.113.9, 10.0.0.7")).toBe("203.0.113.9");
  });

  it("ranges: walks back through trusted proxies only", () => {
    expect(client("10.0.0.0/8", "10.0.0.5", "6.6.6.6, 203.0.113.9, 10.1.2.3")).toBe("203.0.113.9");
    // A peer outside the ranges is the client, even with a header.
    expect(client("10.0.0.0/8", "203.0.113.9", "6.6.6.6")).toBe("203.0.113.9");
    // IPv4 peers of a dual-stack listener arrive IPv4-mapped.
    expect(client("loopback", "::ffff:127.0.0.1", "203.0.113.9")).toBe("203.0.113.9");
  });

  it("stops at an entry that is not an address, and at a missing header", () => {
    expect(client("1", "10.0.0.5", "203.0.113.9, <script>")).toBe("10.0.0.5");
    expect(client("1", "10.0.0.5")).toBe("10.0.0.5");
    expect(client("3", "10.0.0.5", "203.0.113.9")).toBe("203.0.113.9");
  });
});

describe("normalizeAddress", () => {
  it("unwraps IPv4-mapped IPv6 addresses only", () => {
    expect(normalizeAddress("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(normalizeAddress("::1")).toBe("::1");
    expect(normalizeAddress("2001:db8::1")).toBe("2001:db8::1");
  });
});
