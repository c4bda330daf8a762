/** Vite as middleware, as React Router's custom-server template (decision 0056). Only erasable TypeScript. */
// First: colours are decided before Vite, which decides as it loads, is imported.
import "./colours.ts";
import type { Server } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ServerBuild } from "react-router";
import { createServer, isRunnableDevEnvironment, type Plugin, type ViteDevServer } from "vite";
import type { Env } from "../../app/env.server.ts";
import type { AppServerOptions } from "../app-server.ts";
import { runDevBoot } from "./boot.ts";
import { requestSpotlight, useSpotlight } from "./spotlight.ts";

const root = path.resolve(import.meta.dirname, "../..");
const SERVER_BUILD = "virtual:react-router/server-build";

interface Boot {
  booted: Promise<Env>;
  startServer(
    options: AppServerOptions,
  ): Promise<{ server: Server; listen: (defaultHost?: string) => Promise<void> }>;
}

function options(): { config?: string; spotlight?: boolean } {
  try {
    return parseArgs({ options: { config: { type: "string" }, spotlight: { type: "boolean" } } }).values;
  } catch (error) {
    console.error(
      `npm run dev: ${(error as Error).message} (options: --config <file>, --spotlight; PORT and HOST set where it listens)`,
    );
    process.exit(1);
  }
}

const { config, spotlight } = options();
if (spotlight) requestSpotlight();
const { boot, bootModules } = await runDevBoot<Boot>(root);
const env = await boot.booted;
// Before the app serves: the SDKs send to it from the first request on.
if (env.SENTRY_SPOTLIGHT) await useSpotlight(env.SENTRY_SPOTLIGHT, root);

// Created later: it needs the app's server for its hot-reload socket.
const dev: { vite?: ViteDevServer } = {};
const { server, listen } = await boot.startServer({
  mode: "development",
  vite: (req, res, next) => (dev.vite ? dev.vite.middlewares(req, res, next) : next()),
  build: async () => {
    const ssr = dev.vite!.environments.ssr;
    if (!isRunnableDevEnvironment(ssr)) throw new Error("Vite's SSR environment cannot run modules");
    return (await ssr.runner.import(SERVER_BUILD)) as ServerBuild;
  },
});
// React Router's plugin's Vite servers would end the process on SIGTERM (exit 143): server/adapter/README.md.
const ownSignalHandlers = new Set(process.listeners("SIGTERM"));
const bootOwnsSignals: Plugin = {
  name: "boot-owns-signals",
  configureServer() {
    for (const listener of process.listeners("SIGTERM")) {
      if (!ownSignalHandlers.has(listener)) process.off("SIGTERM", listener);
    }
  },
};
const vite = await createServer({
  configFile: config,
  plugins: [bootModules, bootOwnsSignals],
  appType: "custom",
  server: { middlewareMode: true, hmr: { server } },
});
dev.vite = vite;
// The hot-reload sockets would hold the drain for its whole grace period.
const closeHotReload = () => void vite.ws.close();
ownSignalHandlers.add(closeHotReload);
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, closeHotReload);

// Vite's default: the dev server serves source files, so not to the network unless asked.
await listen("localhost");
const address = server.address();
const port = typeof address === "object" && address ? address.port : env.PORT;
// Vite cannot print its own line in middleware mode.
console.log(`\n  ➜  Local:   http://${env.HOST ?? "localhost"}:${port}/\n`);
