/**
 * Server entry: renders documents and decorates responses. Thin on purpose:
 * failures go to app/errors/, the document's headers and data come from
 * app/document/, trace data from app/monitoring/.
 */
import { PassThrough } from "node:stream";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { getEnv, getPublicEnv } from "~/env.server";
import { DocumentContext, type DocumentData } from "~/document/document-context";
import { createNonce, securityHeaders } from "~/document/security-headers.server";
import { DIGEST_HEADER } from "~/errors/digest";
import { ErrorDigestContext } from "~/errors/error-page";
import { currentDigest } from "~/request-scope.server";
import { handleServerError } from "~/errors/server-failure.server";
import { traceMetaData, traceServerTiming } from "~/monitoring/sentry.server";
import { namesUnknownRoute } from "~/routing/request-route.server";

/** How long a streamed response may wait for deferred data before the stream is aborted. */
export const streamTimeout = 5_000;

/** Every server failure takes one path (app/errors/server-failure.server.ts); thrown 5xx Responses come here too. */
export const handleError: HandleErrorFunction = (error, { request }) => handleServerError(error, { request });

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  const url = new URL(request.url);
  // Legacy `?_data` requests (this app uses single fetch) and `_routes` that
  // name no route get a clear 400 instead of Remix's empty 200.
  if (url.searchParams.has("_data") || namesUnknownRoute(url)) {
    return new Response("Bad single-fetch request", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const digest = currentDigest();
  if (digest) response.headers.set(DIGEST_HEADER, digest);
  return response;
};

/** What every document response shares: the environment is fixed for the process. Made on the first document. */
function fixedByEnvironment() {
  const env = getEnv();
  return {
    applySecurityHeaders: securityHeaders({
      sentryDsn: env.SENTRY_DSN,
      sentryTunnel: env.SENTRY_TUNNEL_ROUTE,
      hstsMaxAge: env.HSTS_MAX_AGE,
    }),
    publicEnv: getPublicEnv(env),
  };
}
let fixed: ReturnType<typeof fixedByEnvironment> | undefined;

export default function handleDocumentRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const { applySecurityHeaders, publicEnv } = (fixed ??= fixedByEnvironment());
  const nonce = createNonce();
  applySecurityHeaders(responseHeaders, nonce);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Only getPublicEnv's allowlist reaches the browser; the trace data lets the page load continue this request's trace.
  const documentData: DocumentData = { nonce, env: publicEnv, trace: traceMetaData() };
  const serverTiming = traceServerTiming(documentData.trace);
  if (serverTiming) responseHeaders.append("Server-Timing", serverTiming);
  // Crawlers get the whole page at once; people get the shell as soon as it is ready.
  const waitForAll = isbot(request.headers.get("user-agent"));

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // The abort timer holds the whole render until it fires: cleared as soon as
    // rendering is over, a finished page is not kept in memory. React renders from
    // the next turn, so the timer is always set before onAllReady can clear it.
    const finish = () => clearTimeout(abortTimer);
    const respond = () => {
      shellRendered = true;
      const body = new PassThrough();
      resolve(
        new Response(createReadableStreamFromReadable(body), {
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
          // Before the shell is out, onShellError hands the error to Remix; after it,
          // nobody else will see it (a failed deferred value while streaming).
          if (shellRendered) void handleServerError(error, { request });
        },
      },
    );
    const abortTimer = setTimeout(abort, streamTimeout + 1_000);
  });
}
