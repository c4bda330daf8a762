import {
  createNonce,
  recordNonce,
  securityHeaders,
  type SecurityHeaderEnv,
} from "~/document/security-headers.server";
import { getEnv } from "~/env.server";
import { REQUEST_ID_HEADER, requestIdOf } from "~/request-scope.server";
import type { PreAppHandler } from "./pre-app-handler";

/**
 * The security headers (app/document/security-headers.server.ts) on every
 * response, set here before any handler runs because most responses never pass
 * the document renderer. Later handlers keep them (`writeHead` adds to what is
 * set); the document renderer takes its nonce from here (`nonceOf`).
 */
export function setSecurityHeaders(env: SecurityHeaderEnv): PreAppHandler {
  const headersWith = securityHeaders(env);
  return (request, response) => {
    const nonce = createNonce();
    recordNonce(request, nonce);
    for (const [name, value] of headersWith(nonce)) response.setHeader(name, value);
    return false;
  };
}

/** The same headers as raw lines, for an answer written on the socket (CONNECT). */
export function securityHeaderLines(): string {
  return securityHeaders(getEnv())(createNonce())
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
}

/**
 * Decided before anything else writes a line about the request, so the access
 * line, the refusal and error lines and the app's own lines carry the same id.
 */
export const setRequestId: PreAppHandler = (request, response) => {
  response.setHeader(REQUEST_ID_HEADER, requestIdOf(request));
  return false;
};
