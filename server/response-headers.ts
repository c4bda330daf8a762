import type { PreAppHandler } from "./pre-app-handler";

/**
 * `X-Content-Type-Options: nosniff` on every response, set before everything
 * because most responses never pass the document renderer, and a browser that
 * sniffs a text answer as HTML runs what an attacker put in it. Later handlers
 * keep it (`writeHead` adds to it); the renderer must not set it again.
 */
export const setNoSniff: PreAppHandler = (_request, response) => {
  response.setHeader("X-Content-Type-Options", "nosniff");
  return false;
};
