/**
 * The server build the framework serves, in production and under `npm run dev`:
 * its own build with every loader and action wrapped (data-functions.ts),
 * substituted for it by server/adapter/substitute-server-build.ts. Loading it
 * records the routes for route patterns and the manifest guard.
 */
import * as build from "virtual:remix/server-build";
import { getEnv } from "~/env.server";
import { recordServedRoutes } from "~/routing/request-route.server";
import { wrapDataFunctions, type ErrorHandler } from "./data-functions";
import { refusingHandleError } from "./refusals";
import { refuseRequest } from "~/errors/refusal.server";
import { manifestBoundsOf, recordManifestBounds } from "./manifest-guard";

export * from "virtual:remix/server-build";

// Every id has a route (React Router 7's type allows a missing one).
const table = build.routes as Record<string, NonNullable<(typeof build.routes)[string]>>;

recordServedRoutes(table, build.basename);
recordManifestBounds(manifestBoundsOf(table, build.basename));

const handleError = build.entry.module.handleError as ErrorHandler | undefined;

export const routes = wrapDataFunctions(table, {
  handleError,
  maxBodyBytes: getEnv().BODY_SIZE_LIMIT,
  refuse: refuseRequest,
});

/** The framework hands its refusals of a request (a cross-origin action…) to `handleError` too: they are refused, not reported. */
export const entry = {
  ...build.entry,
  module: { ...build.entry.module, handleError: refusingHandleError(handleError) },
};
