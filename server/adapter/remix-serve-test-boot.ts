/** remix-serve-command.test.ts's boot, as server/boot.ts: `/front` first; ports, static layers, globals printed. */
import { createRequire } from "node:module";
import { lookUpBuiltFilesOnly } from "./built-file-lookup";
import { adaptRemixServeServer, preAppServer, remixServeCli } from "./http-server";
import { keepNodeFetch } from "./node-fetch";
import { dropPublicLookup, staticLayerCounts } from "./public-lookup";

const nodeGlobals = { fetch, Request, Response, Headers, FormData, File };
keepNodeFetch();
const serveExpress = createRequire(remixServeCli())("express") as { static: unknown };
const expressStatic = serveExpress.static;
const staticCreated = lookUpBuiltFilesOnly();
const appServer = preAppServer(
  [
    (request, response) => {
      if (request.url !== "/front") return false;
      response.end("front");
      return true;
    },
  ],
  {
    trust: () => false,
    onListening: (port) => console.log(JSON.stringify({ adapted: port })),
  },
);
adaptRemixServeServer((server) => {
  staticCreated();
  console.log(JSON.stringify({ staticRestored: serveExpress.static === expressStatic }));
  const before = staticLayerCounts(server);
  dropPublicLookup(server);
  console.log(JSON.stringify({ staticLayers: [before, staticLayerCounts(server)] }));
  const replaced = Object.entries(nodeGlobals).filter(
    ([name, value]) => globalThis[name as "fetch"] !== value,
  );
  const fromRemixNode = createRequire(createRequire(remixServeCli()).resolve("@remix-run/node"));
  const undiciLoaded = fromRemixNode.resolve("undici") in fromRemixNode.cache;
  console.log(JSON.stringify({ replacedGlobals: replaced.map(([name]) => name), undiciLoaded }));
  appServer.adapt(server);
});
