// `npm start`: the app's own server (React Router's custom-server pattern;
// docs/decisions/0067-the-app-owns-its-server.md). The code is TypeScript
// (server/boot.ts, server/app-server.ts), built beside the server bundle as
// `boot.js`: the environment is checked and Sentry starts before
// Express and React Router load.
//
//   node server.mjs [build/server/index.js]
import path from "node:path";
import { pathToFileURL } from "node:url";

const serverBuildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const { startServer } = await import(pathToFileURL(path.join(path.dirname(serverBuildPath), "boot.js")).href);
const { listen } = await startServer({ mode: "production", serverBuildPath });
await listen();
