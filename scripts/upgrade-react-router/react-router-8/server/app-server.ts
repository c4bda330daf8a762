/** React Router's custom-server pattern: public APIs, in order (docs/decisions/0067-the-app-owns-its-server.md). */
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express, { type RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import type { Env } from "~/env.server";
import { requestTraceOf, runInRequestTrace } from "~/monitoring/request-trace.server";
import { runInRequestScope, trustRequestIdsFrom } from "~/request-scope.server";
import type { Refusal } from "~/refusals.server";
import { listeningOn } from "~/http/trace-propagation-targets.server";
import { trustFunction } from "~/http/trust-proxy.server";
import { getLogger } from "~/logging/logger.server";
import { flushServerSentry } from "~/monitoring/server-init.server";
import { accessLog } from "./access-log";
import { onlyClientFiles } from "./client-files";
import { frameworkHandler } from "./framework-handler";
import { preAppHandlers } from "./pre-app/handlers-in-order";
import { answerInFrontOfApp } from "./pre-app/server-listeners";
import { installGracefulShutdown } from "./shutdown";

export type AppServerOptions =
  | {
      mode: "production";
      serverBuildPath: string;
    }
  | {
      mode: "development";
      vite: RequestHandler;
      build: () => Promise<ServerBuild>;
    };

/** Express, as `react-router-serve` sets it up, without its access log and its lookup in `public/`. */
async function expressApp(
  env: Env,
  options: AppServerOptions,
  refusalOf: (request: http.IncomingMessage) => Refusal | undefined,
): Promise<express.Express> {
  const trust = trustFunction(env.TRUST_PROXY);
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trust);
  if (options.mode === "development") {
    app.use(options.vite);
    app.use(accessLog(trust));
    app.all("/{*splat}", frameworkHandler({ build: options.build, mode: "development", refusalOf }));
    return app;
  }
  const build = (await import(/* @vite-ignore */ pathToFileURL(options.serverBuildPath).href)) as ServerBuild;
  const client = path.resolve(path.dirname(options.serverBuildPath), "../client");
  const publicPath = build.publicPath.startsWith("/") ? build.publicPath : `/${build.publicPath}`;
  app.use(compression());
  app.use(
    path.posix.join(publicPath, "assets"),
    express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y" }),
  );
  // The build holds `public/`: `react-router-serve`'s second lookup there would `stat` every request.
  app.use(publicPath, onlyClientFiles(express.static(client), client)); // what it held at start (0102)
  // Dot-folders are not served by the handlers above.
  app.use("/.well-known", express.static(path.join(client, ".well-known")));
  app.use(accessLog(trust));
  app.all("/{*splat}", frameworkHandler({ build, mode: "production", refusalOf }));
  return app;
}

export async function createAppServer(env: Env, options: AppServerOptions): Promise<http.Server> {
  const trust = trustFunction(env.TRUST_PROXY);
  trustRequestIdsFrom(trust);
  const handlers = preAppHandlers(env, trust);
  const refusals = new WeakMap<http.IncomingMessage, Refusal>();
  const app = await expressApp(env, options, (request) => refusals.get(request));
  const toApp = (request: http.IncomingMessage, response: http.ServerResponse) =>
    runInRequestTrace(request, () =>
      runInRequestScope(request.url ?? "/", () => app(request, response), {
        incoming: request,
        trace: requestTraceOf(request),
        answerRefusal: (refusal) => void refusals.set(request, refusal),
      }),
    );
  const server = http.createServer();
  answerInFrontOfApp(server, handlers, toApp);
  installGracefulShutdown([server], {
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    flushSentry: flushServerSentry,
  });
  return server;
}

export function listen(server: http.Server, { port, host }: { port: number; host?: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : port;
      listeningOn(bound);
      getLogger().info({ url: `http://${host ?? "localhost"}:${bound}` }, "listening");
      resolve();
    });
  });
}
