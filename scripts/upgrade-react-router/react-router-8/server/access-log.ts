import type { RequestHandler } from "express";
import { clientAddress, type TrustFunction } from "~/http/trust-proxy.server";
import { OPERATIONAL_PATHS, pathOf } from "~/http/operational-paths";
import { getLogger } from "~/logging/logger.server";
import { requestTraceOf } from "~/monitoring/request-trace.server";
import { serverSdk } from "~/monitoring/server-sdk.server";
import { requestIdOf } from "~/request-scope.server";

/** One access line per request that reaches the app, when the response is done; health checks would be noise. */
export function accessLog(trust: TrustFunction): RequestHandler {
  // Requests are transactions: their lines are never Sentry logs (SENTRY_LOGS_LEVEL), however low.
  const logger = getLogger().child({});
  serverSdk()?.node.pinoIntegration.untrackLogger(logger);
  return (req, res, next) => {
    const started = performance.now();
    const url = req.originalUrl;
    if (!OPERATIONAL_PATHS.includes(pathOf(url))) {
      res.once("close", () => {
        logger.info(
          {
            requestId: requestIdOf(req),
            trace_id: requestTraceOf(req)?.traceId,
            client: clientAddress(req, trust) || "-",
            method: req.method,
            url,
            // A client that went away before the answer began gets none.
            status: res.headersSent ? res.statusCode : undefined,
            durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          },
          "request",
        );
      });
    }
    next();
  };
}
