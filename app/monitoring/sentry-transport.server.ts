import http from "node:http";
import https from "node:https";
import { gzip } from "node:zlib";
import type { Transport, TransportMakeRequestResponse, TransportRequest } from "@sentry/core";
import type { makeNodeTransport } from "@sentry/node";
import { SENTRY_LIMITS } from "./sentry-options";
import type { ServerSdk } from "./server-sdk.server";

/** `makeNodeTransport`'s options (the SDK does not export their type by name). */
type NodeTransportOptions = Parameters<typeof makeNodeTransport>[0];

/**
 * The server SDK's transport: the SDK's own (buffer, rate limits, client
 * reports) around a leaner HTTP request, bounded in time and paused after a
 * network failure, so an ingest that is down costs the app's requests nothing
 * (e2e/faults.spec.ts).
 */

/** How long one send to the ingest may take before it is abandoned. */
const INGEST_TIMEOUT_MS = 5_000;

/** Bodies above this are gzipped, as the SDK's own transport does. */
const GZIP_THRESHOLD = 32 * 1024;

/**
 * The SDK's HTTP transport waits forever for an ingest that never answers: its
 * buffer then stays full and every later event is dropped, even after recovery.
 */
function requestWithTimeout(module: typeof http | typeof https, timeoutMs: number) {
  return {
    request(options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) {
      const request = module.request(options, callback);
      request.setTimeout(timeoutMs, () => request.destroy(new Error("Sentry ingest timed out")));
      return request;
    },
  };
}

/**
 * One envelope, one POST, as `makeNodeTransport` sends it, except that the body
 * goes out in one write with its Content-Length rather than piped through a
 * stream, whose machinery costs CPU on every send (docs/decisions/0062).
 */
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
    // Without the brackets of an IPv6 literal, as the SDK does.
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

/** After a send fails at the network level, sends are skipped this long (the SDK's own rate-limit default). */
const INGEST_BACKOFF_MS = SENTRY_LIMITS.defaultRateLimitBackoffSeconds * 1000;

/** The transport factory for `Sentry.init`: see the top of this file. */
export function ingestTransport(
  sdk: Pick<ServerSdk, "core" | "node">,
  { proxy, timeoutMs = INGEST_TIMEOUT_MS }: { proxy?: string; timeoutMs?: number } = {},
) {
  return (options: NodeTransportOptions): Transport => {
    // Through a proxy (the option, or `proxy`: the environment's, which the SDK reads too): the
    // SDK's own request. An unusable URL too: the SDK's transport warns once and sends nothing.
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

/**
 * Paused after a network-level failure: otherwise the SDK opens a connection
 * per event while the ingest is down. Events during the pause are dropped, as
 * during a rate limit.
 */
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
