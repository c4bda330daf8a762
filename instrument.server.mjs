// Loaded by `npm start` through NODE_OPTIONS='--import ./instrument.server.mjs',
// before remix-serve imports anything: the environment is checked and Sentry
// starts first, so its instrumentation is in place when Remix loads.
//
// The code itself is TypeScript (server/boot.ts), built
// beside the server bundle that remix-serve was asked to serve.
import path from "node:path";
import { pathToFileURL } from "node:url";

const serverBundle = process.argv[2] ?? "build/server/index.js";
const { booted } = await import(
  pathToFileURL(path.resolve(path.dirname(serverBundle), "instrument.js")).href
);
// Sentry, when on, is loaded asynchronously: wait for it, or remix-serve would start first.
await booted;
