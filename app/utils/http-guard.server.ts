import http from "node:http";

/**
 * Methods that Node's HTTP parser accepts but the Fetch API (and so Remix)
 * cannot represent: `new Request()` throws on them, and Express would answer
 * 500. CONNECT never even reaches a request handler: Node drops the socket.
 */
export const UNSUPPORTED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

function refuse(response: http.ServerResponse): void {
  response.writeHead(405, {
    "Content-Type": "text/plain; charset=utf-8",
    Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
    Connection: "close",
  });
  response.end("Method Not Allowed");
}

/**
 * remix-serve offers no hook in front of Express, so this wraps
 * `http.createServer` once, before remix-serve calls it: requests with an
 * unsupported method get 405, and CONNECT gets a 405 on its raw socket.
 */
export function installHttpGuard(): void {
  const createServer = http.createServer;
  // @ts-expect-error -- re-declaring an overloaded function; the wrapper forwards every overload.
  http.createServer = function guardedCreateServer(...args: Parameters<typeof http.createServer>) {
    const server = createServer.apply(http, args);
    // Our listener runs first and answers unsupported methods before Express sees them.
    const listeners = server.listeners("request") as http.RequestListener[];
    server.removeAllListeners("request");
    server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
      if (UNSUPPORTED_METHODS.has(request.method ?? "")) {
        refuse(response);
        return;
      }
      for (const listener of listeners) listener(request, response);
    });
    server.on("connect", (_request, socket) => {
      socket.end("HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    });
    return server;
  };
}
