// The boot's loader: `npm start` and the image run `node --import ./boot.mjs`,
// so the boot (server/boot.ts, built as boot.js beside the server bundle
// remix-serve was asked to serve) runs before remix-serve imports anything.
import path from "node:path";
import { pathToFileURL } from "node:url";

const serverBundle = process.argv[2] ?? "build/server/index.js";
const { booted } = await import(pathToFileURL(path.resolve(path.dirname(serverBundle), "boot.js")).href);
// Sentry, when on, is loaded asynchronously: wait for it, or remix-serve would start first.
await booted;
