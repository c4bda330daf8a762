import type http from "node:http";
import type { Duplex } from "node:stream";
import type { PreAppHandler } from "./handler";
import { securityHeaderLines } from "./response-headers";

type Listener = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** Both trees: the pre-app handlers, then `toApp`, for each request as `request`, the event the SDK scopes. */
export function answerInFrontOfApp(server: http.Server, handlers: PreAppHandler[], toApp: Listener): void {
  const awaitingContinue = new WeakSet<http.IncomingMessage>();
  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (handlers.some((handle) => handle(request, response))) return;
    // `Expect: 100-continue`: a refused request never tells the client to send its body.
    if (awaitingContinue.delete(request)) response.writeContinue();
    toApp(request, response);
  });
  // Emitted as `request`, as Node does when nobody listens here, the continue left to the listener above.
  server.on("checkContinue", (request: http.IncomingMessage, response: http.ServerResponse) => {
    awaitingContinue.add(request);
    server.emit("request", request, response);
  });
  // Node drops CONNECT sockets silently when nobody listens.
  server.on("connect", (_request: http.IncomingMessage, socket: Duplex) => {
    socket.end(
      "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE\r\n" +
        securityHeaderLines() +
        "Connection: close\r\nContent-Length: 0\r\n\r\n",
    );
  });
}
