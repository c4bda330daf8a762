/** The server SDK's three entries in one module: the build makes them one chunk, its name this file's. */
export * as node from "@sentry/node";
export * as core from "@sentry/core";
export * as server from "@sentry/core/server";
