/**
 * The production boot, then Vite's dev server, in one process, so the pre-app handlers wrap the server
 * Vite creates (docs/decisions/0056-dev-runs-the-production-boot.md). Run by Node: only erasable TypeScript.
 */
// First: colours are decided before Vite, which decides as it loads, is imported.
import "./colours.ts";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServer, type Plugin } from "vite";
import type { Env } from "../../app/env.server.ts";
import { runDevBoot } from "./boot.ts";

const root = path.resolve(import.meta.dirname, "../..");

function options(): { config?: string } {
  try {
    return parseArgs({ options: { config: { type: "string" } } }).values;
  } catch (error) {
    console.error(
      `npm run dev: ${(error as Error).message} (options: --config <file>; PORT and HOST set where it listens)`,
    );
    process.exit(1);
  }
}

const { config } = options();
const { boot, bootModules } = await runDevBoot<{ booted: Promise<Env> }>(root);
const env = await boot.booted;

// Vite ends the process on SIGTERM, destroying every socket, and reinstalls that handler on each
// restart; the hot-reload sockets would hold the drain for its whole grace.
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
