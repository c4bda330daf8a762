/**
 * The bare React Router 8 baseline's server (bench/baseline/serve.ts): what
 * `react-router-serve` 8.4.0 does for a server build, without its access log
 * (the app's own server, server/app-server.ts, is set up the same way): Express 5,
 * compression, the client build's files, then React Router's request handler
 * through `@react-router/node`. Not `@react-router/serve` itself: it requires
 * exactly the `react-router` of its own version, and its releases trail
 * react-router's, so it would hold the whole tree back.
 *
 *   node bench/baseline/server.mjs <server build>   (PORT, HOST)
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestListener } from "@react-router/node";
import compression from "compression";
import express from "express";

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
app.all("/{*splat}", createRequestListener({ build, mode: process.env.NODE_ENV }));

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const server = app.listen(port, host, (error) => {
  if (error) throw error;
  console.log(`[baseline] listening on http://${host}:${port}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => server.close());
