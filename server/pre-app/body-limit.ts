import { DISCARD_AFTER_REFUSAL_BYTES } from "~/http/request-body.server";
import { refuseBeforeApp } from "~/refusals.server";
import type { PreAppHandler } from "./handler";

/** A declared Content-Length over the limit: 413 before any body is read, the rest drained, never reset. */
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
