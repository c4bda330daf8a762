import type { Env } from "~/env.server";
import type { TrustFunction } from "~/http/trust-proxy.server";
import { refuseLargeBodies } from "./body-limit";
import { boundManifestRequests } from "./manifest-guard";
import type { PreAppHandler } from "./handler";
import {
  refuseInvalidHost,
  refuseMalformedPaths,
  refuseUnsupportedMethods,
  supplyMissingHost,
} from "./request-guards";
import { answerReadiness } from "./readiness";
import { setRequestId, setSecurityHeaders } from "./response-headers";
import { createTunnelHandler } from "./tunnel";

/** One list for every server of the app, so that a guard added here guards both trees. */
export function preAppHandlers(env: Env, trust: TrustFunction): PreAppHandler[] {
  return [
    setSecurityHeaders(env), // first: every response carries them, the pre-app handlers' own answers too
    setRequestId, // so does its request id
    answerReadiness, // while draining, every response says Connection: close
    refuseUnsupportedMethods,
    refuseMalformedPaths,
    supplyMissingHost,
    refuseInvalidHost,
    refuseLargeBodies(env.BODY_SIZE_LIMIT),
    boundManifestRequests, // rewrites the target of a lazy-discovery request, answers none
    ...(env.SENTRY_TUNNEL_ROUTE && env.SENTRY_DSN
      ? [createTunnelHandler({ route: env.SENTRY_TUNNEL_ROUTE, dsn: env.SENTRY_DSN, trust })]
      : []),
  ];
}
