import type { IncomingMessage } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import type { RequestHandler } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { Refusal } from "~/refusals.server";
import { refusalAnswer } from "./refusal-answer";

/**
 * React Router's handler through `@remix-run/node-fetch-server`, which `@react-router/node` is built on.
 * Ours (docs/decisions/0081): host and protocol from Express (forwarded ones only from `TRUST_PROXY`), and
 * a refusal's answer, as the framework answers a cross-origin post after `handleError`, unseen by any hook.
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
