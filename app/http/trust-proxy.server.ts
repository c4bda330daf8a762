import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** `TRUST_PROXY`, by Express's rule; unset trusts none (docs/decisions/0041-trust-proxy-default-none.md). */
type TrustProxy = { hops: number } | { ranges: string[] };

/** Hop 0 is the socket's peer, hop 1 the last `X-Forwarded-For` entry. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** Express's names, so a value written for Express means the same here. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** `::ffff:10.0.0.1`, an IPv4 peer of a dual-stack listener, is `10.0.0.1`. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

function parseRange(text: string): { address: string; prefix: number; family: 4 | 6 } | undefined {
  const [address = "", prefixText, ...rest] = text.split("/");
  const family = isIP(address);
  if (rest.length > 0 || (family !== 4 && family !== 6)) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: bits, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return undefined;
  return { address, prefix: Number(prefixText), family };
}

export function parseTrustProxy(value: string): TrustProxy | undefined {
  const text = value.trim();
  if (/^\d{1,2}$/.test(text)) return { hops: Number(text) };
  const ranges = text
    .split(",")
    .map((part) => part.trim())
    .flatMap((part) => NAMED_RANGES[part] ?? [part]);
  if (ranges.length === 0 || ranges.some((range) => !parseRange(range))) return undefined;
  return { ranges };
}

export function trustFunction(setting: TrustProxy | undefined): TrustFunction {
  if (!setting) return () => false;
  if ("hops" in setting) {
    const { hops } = setting;
    return (_address, hop) => hop < hops;
  }
  const list = new BlockList();
  for (const range of setting.ranges) {
    const { address, prefix, family } = parseRange(range)!;
    list.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return (address) => {
    const normalized = normalizeAddress(address);
    const family = isIP(normalized);
    return family !== 0 && list.check(normalized, family === 4 ? "ipv4" : "ipv6");
  };
}

/** An entry that is not an IP address ends the walk at the proxy that passed it on. */
export function clientAddress(request: IncomingMessage, trust: TrustFunction): string {
  let address = normalizeAddress(request.socket.remoteAddress ?? "");
  if (!trust(address, 0)) return address;
  const header = request.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",");
  for (let index = forwarded.length - 1, hop = 1; index >= 0; index--, hop++) {
    const candidate = normalizeAddress(forwarded[index]!.trim());
    if (isIP(candidate) === 0) return address;
    address = candidate;
    if (!trust(address, hop)) return address;
  }
  return address;
}
