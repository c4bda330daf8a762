import { REQUEST_ID_HEADER, requestIdOf } from "~/request-scope.server";
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

/**
 * The request's id (app/request-scope.server.ts) on every response, decided
 * before anything else writes a line about the request: the access line, the
 * refusal and error lines and the app's own lines carry the same one.
 */
export const setRequestId: PreAppHandler = (request, response) => {
  response.setHeader(REQUEST_ID_HEADER, requestIdOf(request));
  return false;
};
