import {
  createNonce,
  recordNonce,
  securityHeaders,
  type SecurityHeaderEnv,
} from "~/document/security-headers.server";
import { getEnv } from "~/env.server";
import { REQUEST_ID_HEADER, requestIdOf } from "~/request-scope.server";
import type { PreAppHandler } from "./handler";

/** Before any handler runs: most responses never pass the document renderer. */
export function setSecurityHeaders(env: SecurityHeaderEnv): PreAppHandler {
  const headersWith = securityHeaders(env);
  return (request, response) => {
    const nonce = createNonce();
    recordNonce(request, nonce);
    for (const [name, value] of headersWith(nonce)) response.setHeader(name, value);
    return false;
  };
}

/** For an answer written on the socket (CONNECT). */
export function securityHeaderLines(): string {
  return securityHeaders(getEnv())(createNonce())
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
}

/** Decided before anything writes a line about the request, so every line carries the same id. */
export const setRequestId: PreAppHandler = (request, response) => {
  response.setHeader(REQUEST_ID_HEADER, requestIdOf(request));
  return false;
};
