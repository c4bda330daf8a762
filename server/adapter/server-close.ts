import http, { type Server } from "node:http";

/** remix-serve's signal handler calls `server.close()` at once: no drain delay, and ERR_SERVER_NOT_RUNNING. */
export function disarmClose(servers: Iterable<Server>): void {
  for (const server of servers) server.close = () => server;
}

export function closeServer(server: Server, done: () => void): void {
  http.Server.prototype.close.call(server, () => done());
}
