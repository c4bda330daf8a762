import http from "node:http";
import { syncBuiltinESMExports } from "node:module";
import type { TrustFunction } from "~/http/trust-proxy.server";
import { requestTraceOf, runInRequestTrace } from "~/monitoring/request-trace.server";
import { runInRequestScope } from "~/request-scope.server";
import type { PreAppHandler } from "../pre-app/handler";
import { securityHeaderLines } from "../pre-app/response-headers";
import { answerRefusal } from "./refusal-response";

/** A global patch: remix-serve offers no hook in front of Express and the framework. */
export type { PreAppHandler };

type ExpressLike = http.RequestListener & { set?: (name: string, value: unknown) => unknown };

/** Also Express's `trust proxy`: loaders' URL honours X-Forwarded-Proto and -Host only from a trusted proxy. */
export function installPreAppHandlers(
  handlers: PreAppHandler[],
  {
    trust,
    onListenError,
    onListening,
  }: {
    trust: TrustFunction;
    onListenError?: (error: Error) => void;
    onListening?: (port: number) => void;
  },
): ReadonlySet<http.Server> {
  const httpServers = new Set<http.Server>();
  const createServer = http.createServer;
  // @ts-expect-error -- re-declaring an overloaded function; the wrapper forwards every overload.
  http.createServer = function createServerWithPreAppHandlers(...args: Parameters<typeof http.createServer>) {
    const server = createServer.apply(http, args);
    httpServers.add(server);
    server.once("listening", () => {
      const address = server.address();
      if (typeof address === "object" && address) onListening?.(address.port);
    });
    // remix-serve listens without an `error` listener: a busy port would end the process with a stack.
    if (onListenError) {
      server.once("error", onListenError);
      server.once("listening", () => server.off("error", onListenError));
    }
    const appListeners = server.listeners("request") as ExpressLike[];
    for (const listener of appListeners) listener.set?.("trust proxy", trust);
    server.removeAllListeners("request");
    const toApp = (request: http.IncomingMessage, response: http.ServerResponse) =>
      runInRequestTrace(request, () =>
        runInRequestScope(
          request.url ?? "/",
          () => {
            for (const listener of appListeners) listener(request, response);
          },
          { incoming: request, answerRefusal: answerRefusal(response), trace: requestTraceOf(request) },
        ),
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
    // Node drops CONNECT sockets silently when nobody listens.
    server.on("connect", (_request: http.IncomingMessage, socket: import("node:stream").Duplex) => {
      socket.end(
        "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE\r\n" +
          securityHeaderLines() +
          "Connection: close\r\nContent-Length: 0\r\n\r\n",
      );
    });
    return server;
  };
  // `import { createServer } from "node:http"` (Vite's dev server) reads a copy only this call updates.
  syncBuiltinESMExports();
  return httpServers;
}
