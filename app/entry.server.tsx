/** Server entry: renders documents. Failures go to app/errors/ (handleError: server/data-functions/wrapped-server-build.ts). */
import { PassThrough, Readable } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { getEnv, getPublicEnv, type PublicEnv } from "~/env.server";
import { DocumentContext, type DocumentData } from "~/document/document-context";
import { nonceOf } from "~/document/security-headers.server";
import { DIGEST_HEADER } from "~/errors/digest";
import { ErrorDigestContext } from "~/errors/error-page";
import { currentDigest, currentIncomingRequest } from "~/request-scope.server";
import { handleServerError } from "~/errors/server-failure.server";
import { traceMetaData, traceRateServerTiming, traceServerTiming } from "~/monitoring/request-spans.server";
import { namesUnknownRoute } from "~/routing/request-route.server";

export const streamTimeout = 5_000;

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  const url = new URL(request.url);
  // Legacy `?_data` and `_routes` naming no route: a 400, not the framework's empty 200.
  if (url.searchParams.has("_data") || namesUnknownRoute(url)) {
    return new Response("Bad single-fetch request", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const digest = currentDigest();
  if (digest) response.headers.set(DIGEST_HEADER, digest);
  const rate = traceRateServerTiming();
  if (rate) response.headers.append("Server-Timing", rate);
  return response;
};

let publicEnv: PublicEnv | undefined;

export default function handleDocumentRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  // The CSP the response already carries names it.
  const nonce = nonceOf(currentIncomingRequest());
  if (!nonce) throw new Error("No CSP nonce: documents are served only behind the pre-app handlers");
  publicEnv ??= getPublicEnv(getEnv());
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const documentData: DocumentData = {
    nonce,
    env: publicEnv,
    trace: traceMetaData(request, remixContext.staticHandlerContext.matches),
  };
  const serverTiming = traceServerTiming(documentData.trace);
  if (serverTiming) responseHeaders.append("Server-Timing", serverTiming);
  // Crawlers get the whole page at once; people get the shell as soon as it is ready.
  const waitForAll = isbot(request.headers.get("user-agent"));

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Cleared when rendering is over, or the timer holds the page in memory (set first: React renders next turn).
    const finish = () => clearTimeout(abortTimer);
    const respond = () => {
      shellRendered = true;
      const body = new PassThrough();
      resolve(
        // Node's own conversion: the framework's helper package would pin its version (docs/decisions/0085).
        new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <DocumentContext.Provider value={documentData}>
        <ErrorDigestContext.Provider value={currentDigest}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </ErrorDigestContext.Provider>
      </DocumentContext.Provider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) respond();
        },
        onAllReady() {
          finish();
          if (waitForAll) respond();
        },
        // Remix catches this, reports it through handleError and renders the error boundary.
        onShellError(error) {
          finish();
          reject(error);
        },
        onError(error) {
          responseStatusCode = 500;
          // After the shell nobody else sees it (a failed deferred value); before, onShellError does.
          if (shellRendered) void handleServerError(error, { request });
        },
      },
    );
    const abortTimer = setTimeout(abort, streamTimeout + 1_000);
  });
}
