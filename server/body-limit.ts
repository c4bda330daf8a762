import type { FrontHandler } from "./front-handlers";

/**
 * Request bodies larger than the limit (BODY_SIZE_LIMIT) are refused before
 * any of them is read: a declared Content-Length over it gets 413 here, with
 * `Connection: close`, and a client that asked `Expect: 100-continue` never
 * gets the go-ahead (front-handlers.ts runs this on `checkContinue` too).
 * Node then reads what the client still sends and drops it, so memory does
 * not grow with the size attempted. A body without a length (chunked) is
 * counted as it is read instead (app/http/request-body.server.ts, wired in by
 * remix-handler.ts), and refused the same way once it passes the limit.
 */
export function refuseLargeBodies(maxBytes: number): FrontHandler {
  return (request, response) => {
    const declared = request.headers["content-length"];
    if (declared === undefined || !(Number(declared) > maxBytes)) return false;
    response.writeHead(413, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
    response.end("Payload Too Large");
    return true;
  };
}
