/** remix-serve-command.test.ts's build, with two servers of the app's own (admin's listener added late). */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildWith } from "./refusal-test-build";

const listening = (name: string, server: http.Server) =>
  server.listen(0, "127.0.0.1", () =>
    console.log(JSON.stringify({ [name]: (server.address() as AddressInfo).port })),
  );
listening(
  "metrics",
  http.createServer((_request, response) => response.end("metrics")),
);
const admin = http.createServer();
admin.on("request", (_request: http.IncomingMessage, response: http.ServerResponse) => response.end("admin"));
listening("admin", admin);

const build = buildWith(() => undefined);
export const { entry, routes, assets, publicPath, future, basename, isSpaMode } = build;
export const assetsBuildDirectory = process.env.TEST_CLIENT_DIR ?? build.assetsBuildDirectory; // apart from public/
