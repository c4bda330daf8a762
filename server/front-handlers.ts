import http from "node:http";
import { syncBuiltinESMExports } from "node:module";
import { pathOf } from "~/http/operational-paths";
import type { TrustFunction } from "~/http/trust-proxy.server";

/**
 * A global patch: handlers that answer before Express and Remix see a
 * request. remix-serve offers no hook in front of Express, so
 * `installFrontHandlers` wraps `http.createServer` once, before remix-serve
 * calls it (front-handlers.test.ts fails if that stops reaching its server).
 * Keep the list short: only what must not run through the app (see boot.ts).
 */
export type FrontHandler = (request: http.IncomingMessage, response: http.ServerResponse) => boolean;

/**
 * Methods that Node's HTTP parser accepts but the Fetch API (and so Remix)
 * cannot represent: `new Request()` throws on them and Express would answer
 * 500. (CONNECT never reaches a request handler; see below.)
 */
const UNSUPPORTED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

export const refuseUnsupportedMethods: FrontHandler = (request, response) => {
  if (!UNSUPPORTED_METHODS.has(request.method ?? "")) return false;
  response.writeHead(405, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
  response.end("Method Not Allowed");
  return true;
};

/**
 * A path that is not valid percent-encoding gets a short 400 here: Express
 * would answer 400 too, but print the URIError's stack to stderr for every
 * such request, which lets anyone flood the server's logs.
 */
export const refuseMalformedPaths: FrontHandler = (request, response) => {
  const path = pathOf(request.url ?? "/");
  // Only a `%` escape can be malformed; most paths have none and skip the decode.
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
    response.end("Bad Request: malformed URL");
    return true;
  }
};

/** Express's `app.set`, which remix-serve's app (the server's request listener) has. */
type ExpressLike = http.RequestListener & { set?: (name: string, value: unknown) => unknown };

/**
 * `trust` becomes Express's `trust proxy` rule too: remix-serve builds the
 * URL that loaders see from `req.protocol` and `req.hostname`, which honour
 * `X-Forwarded-Proto` and `X-Forwarded-Host` only from a trusted proxy.
 */
export function installFrontHandlers(
  handlers: FrontHandler[],
  { trust }: { trust: TrustFunction },
): ReadonlySet<http.Server> {
  // The servers created from now on (remix-serve makes one); shutdown closes them.
  const httpServers = new Set<http.Server>();
  const createServer = http.createServer;
  // @ts-expect-error -- re-declaring an overloaded function; the wrapper forwards every overload.
  http.createServer = function createServerWithFrontHandlers(...args: Parameters<typeof http.createServer>) {
    const server = createServer.apply(http, args);
    httpServers.add(server);
    const appListeners = server.listeners("request") as ExpressLike[];
    for (const listener of appListeners) listener.set?.("trust proxy", trust);
    server.removeAllListeners("request");
    server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
      if (handlers.some((handle) => handle(request, response))) return;
      for (const listener of appListeners) listener(request, response);
    });
    // `Expect: 100-continue`: a refused request never tells the client to send its body.
    server.on("checkContinue", (request: http.IncomingMessage, response: http.ServerResponse) => {
      if (handlers.some((handle) => handle(request, response))) return;
      response.writeContinue();
      for (const listener of appListeners) listener(request, response);
    });
    // Node drops CONNECT sockets silently when nobody listens; answer instead.
    server.on("connect", (_request: http.IncomingMessage, socket: import("node:stream").Duplex) => {
      socket.end("HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    });
    return server;
  };
  // `import { createServer } from "node:http"` (how Vite's dev server makes
  // its server) reads a copy of the export that only this call updates.
  syncBuiltinESMExports();
  return httpServers;
}
