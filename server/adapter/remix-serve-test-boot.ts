/** remix-serve-command.test.ts's boot, as server/boot.ts: `/front` first; ports, static layers printed. */
import { adaptRemixServeServer, preAppServer } from "./http-server";
import { dropPublicLookup, staticLayerCounts } from "./public-lookup";

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
  const before = staticLayerCounts(server);
  dropPublicLookup(server);
  console.log(JSON.stringify({ staticLayers: [before, staticLayerCounts(server)] }));
  appServer.adapt(server);
});
