/** remix-serve-command.test.ts's boot: `/front` answered before the app, each adapted server's port printed. */
import { adaptRemixServeServer, preAppServer } from "./http-server";

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
adaptRemixServeServer(appServer.adapt);
