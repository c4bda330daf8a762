import { pathOf } from "~/http/operational-paths";
import { refuseBeforeApp } from "~/refusals.server";
import type { PreAppHandler } from "./handler";

/**
 * Methods that Node's HTTP parser accepts but the Fetch API (and so Remix)
 * cannot represent: `new Request()` throws on them and Express would answer
 * 500. (CONNECT never reaches a request handler: the server answers it itself.)
 */
const UNSUPPORTED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** The 405's `Allow` (RFC 9110 requires it): what some route may serve; a route refuses the rest itself. */
export const SERVED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";

export const refuseUnsupportedMethods: PreAppHandler = (request, response) => {
  if (!UNSUPPORTED_METHODS.has(request.method ?? "")) return false;
  refuseBeforeApp(request, response, {
    status: 405,
    reason: "method not allowed",
    text: "Method Not Allowed",
    headers: { Allow: SERVED_METHODS, Connection: "close" },
  });
  return true;
};

/** Express would answer 400 too, but print the URIError's stack for each: anyone could flood the logs. */
export const refuseMalformedPaths: PreAppHandler = (request, response) => {
  const path = pathOf(request.url ?? "/");
  // Only a `%` escape can be malformed; most paths have none and skip the decode.
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    refuseBeforeApp(request, response, {
      status: 400,
      reason: "malformed URL",
      text: "Bad Request: malformed URL",
    });
    return true;
  }
};

/** HTTP/1.0 allows no Host; some framework adapters answer that 500 with a stack, so it is `localhost`. */
export const supplyMissingHost: PreAppHandler = (request) => {
  if (request.headers.host === undefined) request.headers.host = "localhost";
  return false;
};

function isAuthority(value: string): boolean {
  return value !== "" && !/[/?#@\\]/.test(value) && URL.canParse(`http://${value}/`);
}

/**
 * A `Host` (or any entry of `X-Forwarded-Host`, which Remix 2 reads a port
 * from whoever sent it) that cannot be a URL's authority gets a short 400
 * here: a port above 65535 or a character no host name may hold makes the
 * framework's adapter build an invalid URL, which Express answers 500 with
 * a stack on stderr; a path, query or user part would be taken as the host.
 */
export const refuseInvalidHost: PreAppHandler = (request, response) => {
  const forwarded = request.headers["x-forwarded-host"];
  const hosts = [request.headers.host ?? "localhost"];
  if (forwarded !== undefined)
    hosts.push(
      ...[forwarded]
        .flat()
        .join(",")
        .split(",")
        .map((entry) => entry.trim()),
    );
  if (hosts.every(isAuthority)) return false;
  refuseBeforeApp(request, response, {
    status: 400,
    reason: "invalid host",
    text: "Bad Request: invalid Host",
  });
  return true;
};
