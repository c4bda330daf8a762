/** The server build the framework serves (adapter/substitute-server-build.ts): loaders and actions wrapped. */
import * as build from "virtual:react-router/server-build";
import { getEnv } from "~/env.server";
import { handleServerError } from "~/errors/server-failure.server";
import { reportThrownAnswer } from "~/errors/thrown-response.server";
import { routerInstrumentation } from "~/monitoring/router-instrumentation.server";
import { serverSdk } from "~/monitoring/server-sdk.server";
import { refuseRequest } from "~/refusals.server";
import { recordServedRoutes } from "~/routing/request-route.server";
import { wrapDataFunctions } from "./wrap";
import { manifestBoundsOf, recordManifestBounds } from "../pre-app/manifest-guard";
import { refusingHandleError } from "../adapter/framework-refusals";

export * from "virtual:react-router/server-build";

// Every id has a route (React Router's type allows a missing one).
const table = build.routes as Record<string, NonNullable<(typeof build.routes)[string]>>;

recordServedRoutes(table, build.basename);
recordManifestBounds(manifestBoundsOf(table, build.basename));

export const routes = wrapDataFunctions(table, {
  handleError: reportThrownAnswer,
  maxBodyBytes: getEnv().BODY_SIZE_LIMIT,
  refuse: refuseRequest,
});

/** Refusals it hands `handleError` are refused; with Sentry on, its instrumentations (docs/decisions/0085). */
export const entry = {
  ...build.entry,
  module: {
    ...build.entry.module,
    handleError: refusingHandleError(handleServerError),
    ...(serverSdk() ? { instrumentations: [routerInstrumentation] } : {}),
  },
};
