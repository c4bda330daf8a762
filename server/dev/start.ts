/** The boot, then Vite, in one process (docs/decisions/0056). Run by Node: only erasable TypeScript. */
// First: colours are decided before Vite, which decides as it loads, is imported.
import "./colours.ts";
import type { Server } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServer, type Plugin } from "vite";
import type { Env } from "../../app/env.server.ts";
import { runDevBoot } from "./boot.ts";
import { requestSpotlight, useSpotlight } from "./spotlight.ts";

const root = path.resolve(import.meta.dirname, "../..");

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
const { boot, bootModules } = await runDevBoot<{
  booted: Promise<Env>;
  adaptDevServer: (server: Server) => void;
}>(root);
const env = await boot.booted;
// Before the app serves: the SDKs send to it from the first request on.
if (env.SENTRY_SPOTLIGHT) await useSpotlight(env.SENTRY_SPOTLIGHT, root);

// Vite's SIGTERM handler, reinstalled on each restart, would end the process; its sockets hold the drain.
const ownSignalHandlers = new Set(process.listeners("SIGTERM"));
const bootOwnsSignals: Plugin = {
  name: "boot-owns-signals",
  configureServer() {
    for (const listener of process.listeners("SIGTERM")) {
      if (!ownSignalHandlers.has(listener)) process.off("SIGTERM", listener);
    }
  },
};

// The pre-app handlers in front of Vite's server, the one it creates on each restart too (before it listens).
const appServer: Plugin = {
  name: "app-server",
  configureServer({ httpServer }) {
    if (httpServer) boot.adaptDevServer(httpServer as Server);
  },
};

const vite = await createServer({
  configFile: config,
  plugins: [bootModules, bootOwnsSignals, appServer],
  server: {
    port: env.PORT,
    // Vite's default: the dev server serves source files, so not to the network unless asked.
    host: env.HOST ?? "localhost",
    strictPort: true,
  },
});
const closeHotReload = () => void vite.ws.close();
ownSignalHandlers.add(closeHotReload);
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, closeHotReload);

await vite.listen();
vite.printUrls();
vite.bindCLIShortcuts({ print: true });
