import { DISCARD_AFTER_REFUSAL_BYTES } from "~/http/request-body.server";
import { refuseBeforeApp } from "~/refusals.server";
import type { PreAppHandler } from "./handler";

/**
 * A declared Content-Length over BODY_SIZE_LIMIT gets 413 before any of the body
 * is read (and no `100 Continue`); chunked bodies are counted as read instead
 * (app/http/request-body.server.ts). After the 413 the rest is drained up to a
 * budget, never reset (request-body.server.ts says why).
 */
export function refuseLargeBodies(maxBytes: number): PreAppHandler {
  return (request, response) => {
    const declared = request.headers["content-length"];
    if (declared === undefined || !(Number(declared) > maxBytes)) return false;
    refuseBeforeApp(request, response, { status: 413, reason: "body too large", text: "Payload Too Large" });
    let discarded = 0;
    const discard = (chunk: Buffer) => {
      discarded += chunk.byteLength;
      if (discarded <= DISCARD_AFTER_REFUSAL_BYTES) return;
      request.off("data", discard);
      request.pause();
    };
    request.on("data", discard);
    return true;
  };
}
