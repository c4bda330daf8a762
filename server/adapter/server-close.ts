import http, { type Server } from "node:http";

/**
 * Adapter (server/adapter/README.md): remix-serve installs its own
 * SIGTERM/SIGINT handler, right after ours, that calls `server.close()` at
 * once: that would stop accepting before the drain delay, and print
 * ERR_SERVER_NOT_RUNNING once the server is closed. Closing is the graceful
 * shutdown's job (server/shutdown.ts), so it disarms the instances' `close`
 * and closes through the prototype's.
 */

/** Makes `server.close()` a no-op on these instances, as remix-serve's signal handler calls it. */
export function disarmClose(servers: Iterable<Server>): void {
  for (const server of servers) server.close = () => server;
}

/** Stops accepting and calls `done` once every connection ended (the real close, disarmed or not). */
export function closeServer(server: Server, done: () => void): void {
  http.Server.prototype.close.call(server, () => done());
}
