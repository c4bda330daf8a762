import type { IncomingMessage } from "node:http";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { Refusal } from "~/refusals.server";
import { refusalAnswer } from "./refusal-answer";

/**
 * React Router's request handler (`createRequestHandler` from `react-router`)
 * as the last Express handler of the app's own server (app-server.ts), as
 * `@react-router/express` does it, with one step between the framework's
 * Response and the wire: a request the app refused during its handling gets
 * the refusal's answer (refusal-answer.ts). `refusalOf` tells, once the
 * framework answered, whether the app refused the request.
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
  return async (req, res, next) => {
    try {
      const response = await handleRequest(fetchRequest(req, res));
      const refusal = refusalOf(req);
      await send(res, refusal ? refusalAnswer(response, refusal) : response);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The Fetch API request for an Express request (`@react-router/express`'s
 * rule): the protocol and host honour `X-Forwarded-Proto` and
 * `X-Forwarded-Host` only from a proxy Express's `trust proxy` trusts.
 */
function fetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const [, forwardedPort] = req.app.enabled("trust proxy")
    ? (req.get("X-Forwarded-Host")?.split(":") ?? [])
    : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort]
    .map((value) => Number.parseInt(value ?? "", 10))
    .find(Number.isSafeInteger);
  const host = `${req.hostname.split(/[\\/?#@]/)[0] || "localhost"}${port ? `:${port}` : ""}`;
  const url = new URL(`${req.protocol}://${host}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(name, value);
    else headers.set(name, values);
  }
  // Aborted when the client goes away before the answer is complete.
  const controller = new AbortController();
  let finished = false;
  res.once("finish", () => (finished = true));
  res.once("close", () => {
    if (!finished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** Writes `response` to the Node response (`@react-router/express`'s rule). */
async function send(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
