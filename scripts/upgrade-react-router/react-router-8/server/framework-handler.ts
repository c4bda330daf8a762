import type { IncomingMessage } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import type { RequestHandler } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { Refusal } from "~/refusals.server";
import { refusalAnswer } from "./refusal-answer";

/**
 * React Router's handler through `@remix-run/node-fetch-server`, the conversion `@react-router/node` is
 * built on, so its fixes are ours. Ours (docs/decisions/0081): host and protocol from Express, which
 * trusts forwarded headers only from `TRUST_PROXY`; a refused request gets the refusal's answer, as the
 * framework answers a cross-origin post after `handleError`, where no hook sees it. In development
 * `build` loads per request, so an edit is served at once.
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
