/**
 * Spotlight's sidecar as `npm run dev -- --spotlight` runs it (README.md): through the package's
 * library entry, not its command line, whose first import starts Spotlight's own `@sentry/node`
 * with a fixed DSN; on 127.0.0.1 only; its page unable to reach anything beyond this machine.
 * `node tools/spotlight/sidecar.ts [--port <port>]` runs one on its own (port 0: any free one).
 * Started with an IPC channel, it reports where it listens and exits when its parent is gone.
 * Run by Node: only erasable TypeScript, and Spotlight's types are not read (it may not be installed).
 */
import net from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import { pageFiles } from "./page.ts";
import { DEFAULT_PORT, HOST, type SidecarMessage } from "./protocol.ts";

interface Spotlight {
  setupSpotlight(options: {
    port: number;
    basePath: string;
    filesToServe: Record<string, Buffer>;
    isStandalone: boolean;
  }): Promise<net.Server | undefined>;
}

/** Spotlight passes no address to `listen`, so Node would take every interface: its routes read files and open editors. */
function listenOnLoopbackOnly(): void {
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
    if (typeof args[0] === "number" && (args[1] === undefined || typeof args[1] === "function")) {
      args.splice(1, args[1] === undefined ? 1 : 0, HOST);
    }
    return listen.apply(this, args as Parameters<typeof listen>);
  } as typeof listen;
}

async function main(): Promise<void> {
  const report = (message: SidecarMessage) => process.send?.(message);
  const { values } = parseArgs({ options: { port: { type: "string", default: String(DEFAULT_PORT) } } });
  const port = Number(values.port);
  try {
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`--port ${values.port}: not a port`);
    listenOnLoopbackOnly();
    // A name in a variable: the type check never looks for the package, which is installed on first use.
    const entry = "@spotlightjs/spotlight";
    const spotlight = (await import(entry)) as Spotlight;
    const packageDir = path.resolve(import.meta.dirname, "node_modules", entry);
    const server = await spotlight.setupSpotlight({
      port,
      // Where its page reads a frame's source lines from, and opens files in an editor.
      basePath: process.cwd(),
      filesToServe: pageFiles(packageDir),
      isStandalone: true,
    });
    const address = server?.address();
    if (!address || typeof address === "string")
      throw new Error(`port ${port} is taken by another Spotlight`);
    report({ listening: { address: address.address, port: address.port } });
    if (!process.send) console.error(`Spotlight: http://${HOST}:${address.port}`);
  } catch (error) {
    report({ failed: (error as Error).message });
    console.error(`Spotlight: ${(error as Error).message}`);
    process.exit(1);
  }
  // Its parent's death closes the channel, whatever signal ended it.
  process.once("disconnect", () => process.exit(0));
}

await main();
