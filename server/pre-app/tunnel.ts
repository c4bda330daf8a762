import type { IncomingMessage, ServerResponse } from "node:http";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { pathOf } from "~/http/operational-paths";
import { envelopeEndpoint, parseDsn, sameProject, type Dsn } from "~/http/sentry-dsn";
import { serverSdk } from "~/monitoring/server-sdk.server";
import { clientAddress, type TrustFunction } from "~/http/trust-proxy.server";

/** Ad blockers spare the app's own host; the configured project only, never an open relay (decision 0052). */

/** After decompression; the browser SDK's envelopes are far smaller. */
const TUNNEL_BODY_LIMIT = 1024 * 1024;
const TUNNEL_UPSTREAM_TIMEOUT_MS = 5_000;

/** The browser SDK needs these back for its rate-limit backoff. */
const PASSED_BACK_HEADERS = ["retry-after", "x-sentry-rate-limits", "content-type"];

interface TunnelOptions {
  route: string;
  dsn: string;
  /** The ingest is told the client's address as TRUST_PROXY allows it, nothing a client made up. */
  trust?: TrustFunction;
}

class TunnelError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function answer(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", ...headers });
  response.end(body);
}

function decoder(request: IncomingMessage) {
  switch ((request.headers["content-encoding"] ?? "identity").toLowerCase()) {
    case "identity":
      return undefined;
    case "gzip":
      return createGunzip();
    case "deflate":
      return createInflate();
    case "br":
      return createBrotliDecompress();
    default:
      throw new TunnelError(415, "Unsupported Content-Encoding");
  }
}

/** Refuses with 413 as soon as the decompressed body passes `limit`: nothing more is read. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(request.headers["content-length"] ?? 0) > limit && !request.headers["content-encoding"]) {
      reject(new TunnelError(413, "Envelope too large"));
      return;
    }
    let stream: NodeJS.ReadableStream = request;
    try {
      const decompress = decoder(request);
      if (decompress) stream = request.pipe(decompress);
    } catch (error) {
      reject(error);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.unpipe();
        request.pause();
        reject(new TunnelError(413, "Envelope too large"));
        return;
      }
      chunks.push(chunk);
    });
    stream.on("error", () => reject(new TunnelError(400, "Malformed body")));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

function envelopeDsn(body: Buffer): Dsn {
  const newline = body.indexOf(0x0a);
  const headerLine = body.subarray(0, newline === -1 ? body.length : newline).toString("utf8");
  let header: unknown;
  try {
    header = JSON.parse(headerLine);
  } catch {
    throw new TunnelError(400, "Malformed envelope header");
  }
  if (!header || typeof header !== "object" || !("dsn" in header))
    throw new TunnelError(400, "Envelope has no DSN");
  const dsn = parseDsn(header.dsn);
  if (!dsn) throw new TunnelError(400, "Envelope DSN is malformed");
  return dsn;
}

async function forward(
  request: IncomingMessage,
  response: ServerResponse,
  options: Required<TunnelOptions>,
  configured: Dsn,
) {
  const body = await readBody(request, TUNNEL_BODY_LIMIT);
  const dsn = envelopeDsn(body);
  if (!sameProject(dsn, configured)) throw new TunnelError(403, "Envelope is for another project");

  let upstream: Response;
  try {
    // No span or breadcrumb for the forwarding itself (Sentry is on whenever the tunnel is).
    const suppressTracing = serverSdk()?.core.suppressTracing ?? (<T>(send: () => T) => send());
    upstream = await suppressTracing(() =>
      fetch(envelopeEndpoint(configured), {
        method: "POST",
        body: new Uint8Array(body),
        headers: {
          "Content-Type": "application/x-sentry-envelope",
          "X-Forwarded-For": clientAddress(request, options.trust),
          ...(request.headers["user-agent"] ? { "User-Agent": request.headers["user-agent"] } : {}),
        },
        signal: AbortSignal.timeout(TUNNEL_UPSTREAM_TIMEOUT_MS),
      }),
    );
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    throw new TunnelError(
      timedOut ? 504 : 502,
      timedOut ? "Sentry did not answer in time" : "Sentry is unreachable",
    );
  }
  const headers: Record<string, string> = {};
  for (const name of PASSED_BACK_HEADERS) {
    const value = upstream.headers.get(name);
    if (value) headers[name] = value;
  }
  const text = (await upstream.text().catch(() => "")).slice(0, 4096);
  response.writeHead(upstream.status, headers);
  response.end(text);
}

export function createTunnelHandler(options: TunnelOptions) {
  const settings: Required<TunnelOptions> = { trust: () => false, ...options };
  const configured = parseDsn(options.dsn);
  if (!configured) throw new Error("The tunnel needs a valid SENTRY_DSN");

  return function handleTunnel(request: IncomingMessage, response: ServerResponse): boolean {
    if (pathOf(request.url ?? "") !== settings.route) return false;
    if (request.method !== "POST") {
      answer(response, 405, "Method Not Allowed", { Allow: "POST" });
      return true;
    }
    forward(request, response, settings, configured).catch((error: unknown) => {
      const status = error instanceof TunnelError ? error.status : 500;
      const message = error instanceof TunnelError ? error.message : "Tunnel failure";
      // A refused body is not read further: close the connection instead of draining it.
      answer(response, status, message, status === 413 ? { Connection: "close" } : {});
      if (status === 413) response.on("finish", () => request.destroy());
    });
    return true;
  };
}
