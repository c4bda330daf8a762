import http, { type Server } from "node:http";

/**
 * remix-serve's own signal handler, right after ours, calls `server.close()` at once: that would stop
 * accepting before the drain delay, and print ERR_SERVER_NOT_RUNNING once the server is closed.
 */

export function disarmClose(servers: Iterable<Server>): void {
  for (const server of servers) server.close = () => server;
}

/** The real close, disarmed or not. */
export function closeServer(server: Server, done: () => void): void {
  http.Server.prototype.close.call(server, () => done());
}
