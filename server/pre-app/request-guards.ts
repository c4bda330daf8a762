import { pathOf } from "~/http/operational-paths";
import { refuseBeforeApp } from "~/refusals.server";
import type { PreAppHandler } from "./handler";

/** Node parses them, `new Request()` throws on them, and Express would answer 500. */
const UNSUPPORTED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** The 405's `Allow` (RFC 9110 requires one): what some route may serve. */
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

/** A host that is no URL authority would build an invalid URL (Express: 500, a stack) or a wrong host. */
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
