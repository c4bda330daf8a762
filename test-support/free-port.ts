/**
 * Ports of 127.0.0.1 for the servers a test starts. A port probed free can still be bound by
 * another process of the machine (another test run's Postgres, say) before the server binds it:
 * `onFreePort` gives such a start another port, so no caller needs a retry of its own.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * The first port the kernel hands out on its own (to `listen(0)` and to every outgoing
 * connection): a port taken from below it is never given to anyone else between our probe and the
 * server's bind. Taken from the kernel's own listen(0) before, it was, once six workers started
 * servers at once: EADDRINUSE.
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return low > 12_000 ? low : 0;
  } catch {
    return 0;
  }
}
const EPHEMERAL_LOW = ephemeralLow();
/** Where no range below the kernel's is known, its own choice. */
const PROBED = EPHEMERAL_LOW > 0 ? 10_000 : 0;

function bindable(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

/** A port of 127.0.0.1 nothing listens on, picked at random below the kernel's own range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const pick = PROBED ? EPHEMERAL_LOW - 1 - Math.floor(Math.random() * PROBED) : 0;
    const port = await bindable(pick);
    if (port !== undefined) return port;
  }
  throw new Error("no free port of 127.0.0.1 found in 50 tries");
}

export const START_TRIES = 3;

/** `start` on a free port; when it fails because the port was taken meanwhile (`taken`), on another. */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  taken: (error: unknown) => boolean,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      if (attempt === START_TRIES || !taken(error)) throw error;
    }
  }
}
