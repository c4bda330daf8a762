import http from "node:http";
import { syncBuiltinESMExports } from "node:module";
import type { TrustFunction } from "~/http/trust-proxy.server";
import { runInRequestScope } from "~/request-scope.server";
import type { PreAppHandler } from "../pre-app/handler";
import { securityHeaderLines } from "../pre-app/response-headers";
import { answerRefusal } from "./refusal-response";

/**
 * Adapter (server/adapter/README.md), a global patch. A pre-app handler sees
 * each request before Express and the framework (the app) do, and returns true
 * when it answered it. remix-serve offers no such hook, so `installPreAppHandlers`
 * wraps `http.createServer` before remix-serve calls it. Keep the list short:
 * only what must not run through the app. What passes them runs in a request
 * scope of its own (app/request-scope.server.ts).
 */
export type { PreAppHandler };

/** Express's `app.set`, which remix-serve's app (the server's request listener) has. */
type ExpressLike = http.RequestListener & { set?: (name: string, value: unknown) => unknown };

/**
 * `trust` becomes Express's `trust proxy` rule too: remix-serve builds the
 * URL that loaders see from `req.protocol` and `req.hostname`, which honour
 * `X-Forwarded-Proto` and `X-Forwarded-Host` only from a trusted proxy.
 */
export function installPreAppHandlers(
  handlers: PreAppHandler[],
  { trust, onListenError }: { trust: TrustFunction; onListenError?: (error: Error) => void },
): ReadonlySet<http.Server> {
  // The servers created from now on (remix-serve makes one); shutdown closes them.
  const httpServers = new Set<http.Server>();
  const createServer = http.createServer;
  // @ts-expect-error -- re-declaring an overloaded function; the wrapper forwards every overload.
  http.createServer = function createServerWithPreAppHandlers(...args: Parameters<typeof http.createServer>) {
    const server = createServer.apply(http, args);
    httpServers.add(server);
    // remix-serve listens without an `error` listener: a busy port would end the process with a stack.
    if (onListenError) {
      server.once("error", onListenError);
      server.once("listening", () => server.off("error", onListenError));
    }
    const appListeners = server.listeners("request") as ExpressLike[];
    for (const listener of appListeners) listener.set?.("trust proxy", trust);
    server.removeAllListeners("request");
    const toApp = (request: http.IncomingMessage, response: http.ServerResponse) =>
      runInRequestScope(
        request.url ?? "/",
        () => {
          for (const listener of appListeners) listener(request, response);
        },
        { incoming: request, answerRefusal: answerRefusal(response) },
      );
    server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
      if (handlers.some((handle) => handle(request, response))) return;
      toApp(request, response);
    });
    // `Expect: 100-continue`: a refused request never tells the client to send its body.
    server.on("checkContinue", (request: http.IncomingMessage, response: http.ServerResponse) => {
      if (handlers.some((handle) => handle(request, response))) return;
      response.writeContinue();
      toApp(request, response);
    });
    // Node drops CONNECT sockets silently when nobody listens; answer instead.
    server.on("connect", (_request: http.IncomingMessage, socket: import("node:stream").Duplex) => {
      socket.end(
        "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE\r\n" +
          securityHeaderLines() +
          "Connection: close\r\nContent-Length: 0\r\n\r\n",
      );
    });
    return server;
  };
  // `import { createServer } from "node:http"` (how Vite's dev server makes
  // its server) reads a copy of the export that only this call updates.
  syncBuiltinESMExports();
  return httpServers;
}
