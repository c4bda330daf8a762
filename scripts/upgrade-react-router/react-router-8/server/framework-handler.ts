import type { IncomingMessage } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import type { RequestHandler } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { Refusal } from "~/refusals.server";
import { refusalAnswer } from "./refusal-answer";

/**
 * Through `@remix-run/node-fetch-server`, as `@react-router/node` (docs/decisions/0081): host and protocol
 * from Express (trusted by `TRUST_PROXY`), and a refusal's answer, which no hook of the framework sees.
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
