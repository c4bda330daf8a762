/**
 * The recorder's HTTP plumbing: reading and decompressing bodies within the
 * size limit, finding the public key, and answering with the CORS headers the
 * browser SDK needs.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import * as zlib from "node:zlib";

/** Largest accepted body, both as sent and after decompression. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;

const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  // The browser SDK reads these to honour rate limits; without "expose" it can't see them cross-origin.
  "Access-Control-Expose-Headers": "x-sentry-rate-limits, retry-after",
};
const PREFLIGHT_ALLOWED_HEADERS = [
  "content-type",
  "content-encoding",
  "x-sentry-auth",
  "sentry-trace",
  "baggage",
];

/** Refusal carrying the HTTP status to answer with. */
export class HttpError extends Error {
  readonly status: number;
  // Erasable syntax only: the e2e build's Vite config imports this file, and a config loader may only strip types.
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Read the whole body, but stop buffering past the limit. We keep draining instead
 * of destroying the socket so the client reliably gets to read our 413.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) reject(new HttpError(413, `body larger than ${MAX_BODY_BYTES} bytes`));
      else resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
    // Without this, a client that disconnects mid-body would leave the promise pending forever.
    req.on("close", () => {
      if (!req.complete) reject(new Error("request aborted before the body was complete"));
    });
  });
}

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/** Undo `Content-Encoding` (applied in listed order, so undone in reverse). */
export async function decodeBody(body: Buffer, contentEncoding: string | undefined): Promise<Buffer> {
  const encodings = (contentEncoding ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== "" && e !== "identity")
    .reverse();
  let out = body;
  for (const encoding of encodings) out = await decodeOne(out, encoding);
  return out;
}

async function decodeOne(body: Buffer, encoding: string): Promise<Buffer> {
  // maxOutputLength guards against decompression bombs blowing up the test process.
  const opts = { maxOutputLength: MAX_BODY_BYTES };
  try {
    switch (encoding) {
      case "gzip":
      case "x-gzip":
        return await gunzip(body, opts);
      case "deflate":
        // HTTP "deflate" means zlib-wrapped, but some clients send raw deflate; accept both.
        return await inflate(body, opts).catch(() => inflateRaw(body, opts));
      case "br":
        return await brotliDecompress(body, opts);
      default:
        throw new HttpError(415, `unsupported Content-Encoding: ${encoding}`);
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw new HttpError(413, `decompressed body larger than ${MAX_BODY_BYTES} bytes`);
    }
    throw new HttpError(400, `cannot decode ${encoding} body: ${(err as Error).message}`);
  }
}

/** `sentry_key` from the query, `X-Sentry-Auth`/`Authorization: Sentry ...`, or the envelope header DSN. */
export function findPublicKey(
  req: IncomingMessage,
  url: URL,
  envelopeHeader: Record<string, unknown>,
): string | undefined {
  const fromQuery = url.searchParams.get("sentry_key");
  if (fromQuery) return fromQuery;
  for (const name of ["x-sentry-auth", "authorization"]) {
    const value = req.headers[name];
    const match = typeof value === "string" ? /\bsentry_key\s*=\s*([^,\s]+)/i.exec(value) : null;
    if (match?.[1]) return match[1];
  }
  // Relay accepts the DSN from the envelope header; tunnels rely on this, so the recorder does too.
  if (typeof envelopeHeader.dsn === "string") {
    try {
      return new URL(envelopeHeader.dsn).username || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body?: string,
): void {
  if (res.headersSent) return;
  const hasBody = body !== undefined && status !== 204 && status !== 304;
  res.writeHead(status, {
    ...CORS_HEADERS,
    ...(hasBody ? { "Content-Type": "application/json" } : {}),
    ...headers,
  });
  res.end(hasBody ? body : undefined);
}

export function sendError(
  res: ServerResponse,
  status: number,
  detail: string,
  extra: Record<string, string> = {},
): void {
  send(res, status, extra, JSON.stringify({ detail }));
}

export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  // Echo whatever the page asks for on top of the known Sentry headers, so custom
  // transports with extra headers still get through.
  const requested = String(req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return {
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": [...new Set([...PREFLIGHT_ALLOWED_HEADERS, ...requested])].join(", "),
    "Access-Control-Max-Age": "86400",
  };
}

export function headerString(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}
