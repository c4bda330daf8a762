import type { IncomingMessage } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import type { RequestHandler } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import { requestTraceOf } from "~/monitoring/request-trace.server";
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
  isTraced = (request) => Boolean(requestTraceOf(request)?.traced),
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  refusalOf: (request: IncomingMessage) => Refusal | undefined;
  isTraced?: (request: IncomingMessage) => boolean;
}): RequestHandler {
  const traced = createRequestHandler(build, mode);
  // An untraced request is served without the instrumentations: their wrappers would only pass it on.
  const untraced =
    typeof build === "function" || !build.entry.module.instrumentations
      ? traced
      : createRequestHandler(uninstrumented(build), mode);
  return (req, res) => {
    const handleRequest = isTraced(req) ? traced : untraced;
    const answer = async (request: Request): Promise<Response> => {
      const response = await handleRequest(request);
      const refusal = refusalOf(req);
      return refusal ? refusalAnswer(response, refusal) : response;
    };
    createRequestListener(answer, { host: req.host, protocol: `${req.protocol}:` })(req, res);
  };
}

function uninstrumented(build: ServerBuild): ServerBuild {
  const { instrumentations: _, ...module } = build.entry.module;
  return { ...build, entry: { ...build.entry, module } };
}
