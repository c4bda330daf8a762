import { realpathSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { getCallSites } from "node:util";
import type { TrustFunction } from "~/http/trust-proxy.server";
import { requestTraceOf, runInRequestTrace } from "~/monitoring/request-trace.server";
import { runInRequestScope } from "~/request-scope.server";
import type { PreAppHandler } from "../pre-app/handler";
import { answerInFrontOfApp } from "../pre-app/server-listeners";
import { answerRefusal } from "./refusal-response";

export type { PreAppHandler };

type ExpressLike = http.RequestListener & { set?: (name: string, value: unknown) => unknown };

export interface AppServer {
  servers: ReadonlySet<http.Server>;
  /** Before it listens: the pre-app handlers go in front of the listeners it was created with. */
  adapt(server: http.Server): void;
}

/** Also Express's `trust proxy`: loaders' URL honours X-Forwarded-Proto and -Host only from a trusted proxy. */
export function preAppServer(
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
): AppServer {
  const servers = new Set<http.Server>();
  const adapt = (server: http.Server) => {
    if (servers.has(server)) return;
    servers.add(server);
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
    answerInFrontOfApp(server, handlers, (request, response) =>
      runInRequestTrace(request, () =>
        runInRequestScope(
          request.url ?? "/",
          () => {
            for (const listener of appListeners) listener(request, response);
          },
          { incoming: request, answerRefusal: answerRefusal(response), trace: requestTraceOf(request) },
        ),
      ),
    );
  };
  return { servers, adapt };
}

/** The file of remix-serve's `remix-serve` command, as Node loads it (symbolic links resolved). */
export function remixServeCli(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@remix-run/serve/package.json");
  const { bin } = require(manifest) as { bin: Record<string, string> };
  return realpathSync(path.resolve(path.dirname(manifest), bin["remix-serve"]!));
}

/** remix-serve offers no hook: only the server its command creates is adapted, then `createServer` is Node's again. */
export function adaptRemixServeServer(
  adapt: (server: http.Server) => void,
  cli = remixServeCli(),
): () => void {
  const createServer = http.createServer;
  let adapted = false;
  const restore = () => {
    adapted = true;
    if (http.createServer === createServerOfRemixServe) http.createServer = createServer;
  };
  function createServerOfRemixServe(...args: Parameters<typeof http.createServer>): http.Server {
    const server = createServer.apply(http, args);
    if (!adapted && getCallSites().some((site) => site.scriptName === cli)) {
      restore();
      adapt(server);
    }
    return server;
  }
  // @ts-expect-error -- re-declaring an overloaded function; the wrapper forwards every overload.
  http.createServer = createServerOfRemixServe;
  return restore;
}
