/** remix-serve prints its banner and access lines as plain text. */
import { clientAddress, type TrustFunction } from "~/http/trust-proxy.server";
import { requestTraceOf } from "~/monitoring/request-trace.server";
import { requestIdOf } from "~/request-scope.server";
import { ACCESS_FORMAT, toJsonLine } from "../log-lines";
import { installJsonStdout } from "../json-stdout";
import { requireFromServe } from "./serve-modules-first";

export function installRemixJsonStdout(instance: string): void {
  installJsonStdout(instance, (line) => toJsonLine(line, instance));
}

interface Morgan {
  token(name: string, get: (request: import("node:http").IncomingMessage) => string): void;
  format(name: string, format: string): void;
}

/** remix-serve asks the morgan it loads for the "tiny" format by name, so that name is redefined. */
export function installAccessLineFormat(trust: TrustFunction): void {
  const morgan = requireFromServe("morgan") as Morgan;
  morgan.token("client", (request) => clientAddress(request, trust) || "-");
  morgan.token("request-id", requestIdOf);
  morgan.token("trace-id", (request) => requestTraceOf(request)?.traceId ?? "-");
  morgan.format("tiny", ACCESS_FORMAT);
}
