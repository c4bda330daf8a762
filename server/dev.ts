/**
 * `npm run dev`: the production boot (server/boot.ts, built as `npm run build`
 * builds it), then Vite's dev server, in one process, so the pre-app handlers
 * wrap the server Vite creates (docs/decisions/0056-dev-runs-the-production-boot.md).
 *
 * Run by Node itself (type stripping): only erasable TypeScript here.
 */
// First: colours are decided before Vite, which decides as it loads, is imported.
import "./dev-colours.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build, createServer, type Plugin, type Rollup } from "vite";
import type { Env } from "../app/env.server.ts";

const root = path.resolve(import.meta.dirname, "..");
const BOOT_ENTRY = path.join(root, "server/boot.ts");

function options(): { config?: string } {
  try {
    return parseArgs({ options: { config: { type: "string" } } }).values;
  } catch (error) {
    // One line, like a bad variable: PORT and HOST replace Vite's --port and --host.
    console.error(
      `npm run dev: ${(error as Error).message} (options: --config <file>; PORT and HOST set where it listens)`,
    );
    process.exit(1);
  }
}

/**
 * Builds the boot into one module beside the packages it imports, imports it, and removes the file.
 * Resolves to the environment the boot checked: where to listen comes from there too.
 */
async function runBoot(): Promise<Env> {
  const result = (await build({
    configFile: false,
    logLevel: "silent",
    publicDir: false,
    resolve: { alias: { "~": path.join(root, "app") } },
    build: {
      ssr: BOOT_ENTRY,
      write: false,
      minify: false,
      rollupOptions: { output: { inlineDynamicImports: true } },
    },
  })) as Rollup.RollupOutput;
  // Inside the project, so that its `import "@sentry/node"` resolves as in the build directory.
  const file = path.join(root, `node_modules/.cache/dev-boot/${process.pid}.mjs`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, result.output[0].code);
  // Also when the boot ends the process (a bad variable: exit code 1).
  const remove = () => rmSync(file, { force: true });
  process.once("exit", remove);
  const { booted } = (await import(pathToFileURL(file).href)) as { booted: Promise<Env> };
  const env = await booted;
  remove();
  process.off("exit", remove);
  return env;
}

const { config } = options();
const env = await runBoot();

// Vite ends the process on SIGTERM, destroying every socket, and installs that
// handler again on each restart: the boot's graceful shutdown owns the signals.
// The hot-reload sockets close too, or they would hold the drain for its whole grace.
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
  plugins: [bootOwnsSignals],
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
