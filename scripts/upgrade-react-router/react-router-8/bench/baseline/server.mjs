/**
 * The bare React Router 8 baseline's server (bench/baseline/serve.ts): what
 * `react-router-serve` 8.4.0 does for a server build, without its access log
 * (the app's own server, server/app-server.ts, is set up the same way): Express 5,
 * compression, the client build's files, then React Router's request handler
 * through `@remix-run/node-fetch-server`, as the app's own server. Not
 * `@react-router/serve` or `/node`: they require exactly the `react-router` of
 * their own version, and their releases trail react-router's, so they would
 * hold the whole tree back.
 *
 *   node bench/baseline/server.mjs <server build>   (PORT, HOST)
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestListener } from "@remix-run/node-fetch-server";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "react-router";

const buildPath = process.argv[2];
if (!buildPath) {
  console.error("usage: node bench/baseline/server.mjs <server build>");
  process.exit(1);
}
const build = await import(pathToFileURL(path.resolve(buildPath)).href);

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(
  path.posix.join(build.publicPath, "assets"),
  express.static(path.join(build.assetsBuildDirectory, "assets"), { immutable: true, maxAge: "1y" }),
);
app.use(build.publicPath, express.static(build.assetsBuildDirectory));
app.use(express.static("public", { maxAge: "1h" }));
const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
app.all(
  "/{*splat}",
  createRequestListener((request) => handleRequest(request)),
);

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const server = app.listen(port, host, (error) => {
  if (error) throw error;
  console.log(`[baseline] listening on http://${host}:${port}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => server.close());
