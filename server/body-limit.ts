import { DISCARD_AFTER_REFUSAL_BYTES } from "~/http/request-body.server";
import type { PreAppHandler } from "./adapter/http-server";
import { refuseBeforeApp } from "./pre-app-refusals";

/**
 * Request bodies larger than the limit (BODY_SIZE_LIMIT) are refused before
 * any of them is read: a declared Content-Length over it gets 413 here, and a
 * client that asked `Expect: 100-continue` never gets the go-ahead
 * (adapter/http-server.ts runs this on `checkContinue` too). A body without a
 * length (chunked) is counted as it is read instead
 * (app/http/request-body.server.ts, applied by the loader and action wrapper: data-functions.ts).
 *
 * After the 413, what the client still sends is read and dropped up to a
 * budget, then left unread, as the form kit does with a body it refuses
 * (request-body.server.ts says why a reset would lose the answer). Memory
 * stays flat and the work bounded whatever size was declared.
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
