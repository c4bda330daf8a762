import http from "node:http";
import https from "node:https";
import { gzip } from "node:zlib";
import type { Transport, TransportMakeRequestResponse, TransportRequest } from "@sentry/core";
import type { makeNodeTransport } from "@sentry/node";
import { SENTRY_LIMITS } from "./sentry-options";
import type { ServerSdk } from "./server-sdk.server";

type NodeTransportOptions = Parameters<typeof makeNodeTransport>[0];

/** The SDK's own transport around a leaner, bounded request: an ingest that is down never slows a request. */

const INGEST_TIMEOUT_MS = 5_000;

const GZIP_THRESHOLD = 32 * 1024;

/** The SDK's transport waits forever for a silent ingest; its buffer then stays full even after recovery. */
function requestWithTimeout(module: typeof http | typeof https, timeoutMs: number) {
  return {
    request(options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) {
      const request = module.request(options, callback);
      request.setTimeout(timeoutMs, () => request.destroy(new Error("Sentry ingest timed out")));
      return request;
    },
  };
}

/** The body in one write: piping it through a stream costs CPU on every send (docs/decisions/0062). */
function leanRequestExecutor(
  sdk: Pick<ServerSdk, "core" | "node">,
  options: NodeTransportOptions,
  timeoutMs: number,
) {
  const url = new URL(options.url);
  const module = requestWithTimeout(url.protocol === "https:" ? https : http, timeoutMs);
  const agent = new (url.protocol === "https:" ? https : http).Agent({
    keepAlive: options.keepAlive ?? true,
    maxSockets: 30,
    timeout: 2_000,
  });
  const target = {
    method: "POST",
    agent,
    hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    path: `${url.pathname}${url.search}`,
    port: url.port,
    protocol: url.protocol,
    ca: options.caCerts,
  };
  const post = (body: string | Uint8Array, headers: Record<string, string>, canRetry: boolean) =>
    new Promise<TransportMakeRequestResponse>((resolve, reject) =>
      sdk.core.suppressTracing(() => {
        const request = module.request(
          { ...target, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
          (response) => {
            response.resume();
            const rateLimits = response.headers["x-sentry-rate-limits"] ?? null;
            resolve({
              statusCode: response.statusCode,
              headers: {
                "retry-after": response.headers["retry-after"] ?? null,
                "x-sentry-rate-limits": Array.isArray(rateLimits) ? rateLimits[0] || null : rateLimits,
              },
            });
          },
        );
        request.on("error", (error: NodeJS.ErrnoException) => {
          if (canRetry && request.reusedSocket && error.code === "ECONNRESET")
            resolve(post(body, headers, false));
          else reject(error);
        });
        request.end(body);
      }),
    );
  return async ({ body }: TransportRequest): Promise<TransportMakeRequestResponse> => {
    if (Buffer.byteLength(body) <= GZIP_THRESHOLD) return post(body, { ...options.headers }, true);
    const zipped = await new Promise<Buffer>((resolve, reject) =>
      gzip(body, (error, result) => (error ? reject(error) : resolve(result))),
    );
    return post(zipped, { ...options.headers, "content-encoding": "gzip" }, true);
  };
}

const INGEST_BACKOFF_MS = SENTRY_LIMITS.defaultRateLimitBackoffSeconds * 1000;

export function ingestTransport(
  sdk: Pick<ServerSdk, "core" | "node">,
  { proxy, timeoutMs = INGEST_TIMEOUT_MS }: { proxy?: string; timeoutMs?: number } = {},
) {
  return (options: NodeTransportOptions): Transport => {
    // Through a proxy, or to an unusable URL (warned about once), the SDK's own request.
    const proxied = options.proxy ?? proxy;
    const transport =
      proxied || !URL.canParse(options.url)
        ? sdk.node.makeNodeTransport({
            ...options,
            httpModule: requestWithTimeout(options.url.startsWith("https:") ? https : http, timeoutMs),
          })
        : sdk.core.createTransport(options, leanRequestExecutor(sdk, options, timeoutMs));
    return withBackoff(transport);
  };
}

/** Otherwise the SDK opens a connection per event while the ingest is down. */
function withBackoff(transport: Transport): Transport {
  let pausedUntil = 0;
  return {
    ...transport,
    send(envelope) {
      if (Date.now() < pausedUntil) return Promise.resolve({});
      return Promise.resolve(transport.send(envelope)).catch((error: unknown) => {
        pausedUntil = Date.now() + INGEST_BACKOFF_MS;
        throw error;
      });
    },
  };
}
