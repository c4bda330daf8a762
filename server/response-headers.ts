import type { PreAppHandler } from "./adapter/http-server";

/**
 * `X-Content-Type-Options: nosniff` on every response the server sends:
 * documents, `.data`, static assets, 404s, health checks, refusals and the
 * pre-app handlers' own answers. Set here, in front of everything, because
 * most of those never pass the document renderer (entry.server), and a
 * browser that sniffs a text answer as HTML or script runs what an attacker
 * put in it. Handlers that answer later keep it: `writeHead` and Express add
 * to the headers set on the response, and the document renderer does not set
 * it again (it would go out twice).
 */
export const setNoSniff: PreAppHandler = (_request, response) => {
  response.setHeader("X-Content-Type-Options", "nosniff");
  return false;
};
