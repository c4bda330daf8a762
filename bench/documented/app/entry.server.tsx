/**
 * Remix's default entry.server for Node (`@remix-run/dev`'s
 * `config/defaults/entry.server.node.tsx`, what the baseline uses, unchanged)
 * plus the one line of Sentry's Remix guide: `handleError` reports unexpected
 * server errors.
 */
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";

export const handleError = Sentry.sentryHandleError;

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const prohibitOutOfOrderStreaming =
    isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return render(
    request,
    responseStatusCode,
    responseHeaders,
    remixContext,
    prohibitOutOfOrderStreaming ? "onAllReady" : "onShellReady",
  );
}

/** Remix's handleBotRequest (`onAllReady`) and handleBrowserRequest (`onShellReady`), which differ only there. */
function render(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  readyWhen: "onAllReady" | "onShellReady",
) {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
      {
        [readyWhen]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Logged only once the shell is out: shell errors reject and are logged by Remix.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
