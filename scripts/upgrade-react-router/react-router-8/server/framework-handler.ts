import type { IncomingMessage } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import type { RequestHandler } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { Refusal } from "~/refusals.server";
import { refusalAnswer } from "./refusal-answer";

/**
 * React Router's request handler (`createRequestHandler` from `react-router`)
 * as the last Express handler of the app's own server (app-server.ts), served
 * through `createRequestListener` of `@remix-run/node-fetch-server`, the
 * Node-to-Fetch conversion `@react-router/node`'s own listener is built on: the
 * request's body, its abort and the writing of the answer are the package's,
 * with its fixes. Two things are the app's (docs/decisions/0081):
 *  - the URL's host and protocol are Express's `req.host` and `req.protocol`,
 *    which honour `X-Forwarded-Host` and `X-Forwarded-Proto` only from a proxy
 *    `TRUST_PROXY` trusts (`@react-router/node`'s listener takes no options);
 *  - a request the app refused during its handling gets the refusal's answer
 *    (refusal-answer.ts): the framework answers a cross-origin form post with
 *    its own 400 after `handleError` returned, where no hook of the app sees it.
 *
 * `build` is the server build itself in production (its routes derived once),
 * or a function that loads it for every request in development (Vite's module
 * runner, so an edit is served at once), as React Router's own dev server does.
 */
export function frameworkHandler({
  build,
  mode,
  refusalOf,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  refusalOf: (request: IncomingMessage) => Refusal | undefined;
}): RequestHandler {
  const handleRequest = createRequestHandler(build, mode);
  return (req, res) => {
    const answer = async (request: Request): Promise<Response> => {
      const response = await handleRequest(request);
      const refusal = refusalOf(req);
      return refusal ? refusalAnswer(response, refusal) : response;
    };
    createRequestListener(answer, { host: req.host, protocol: `${req.protocol}:` })(req, res);
  };
}
