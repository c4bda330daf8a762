// The server build Remix's Vite plugin generates, as server/data-functions/wrapped-server-build.ts imports it (React
// Router 7 declares its own: `react-router typegen`).
declare module "virtual:remix/server-build" {
  import type { ServerBuild } from "@remix-run/node";
  export const assets: ServerBuild["assets"];
  export const assetsBuildDirectory: ServerBuild["assetsBuildDirectory"];
  export const basename: ServerBuild["basename"];
  export const entry: ServerBuild["entry"];
  export const future: ServerBuild["future"];
  export const isSpaMode: ServerBuild["isSpaMode"];
  export const mode: ServerBuild["mode"];
  export const publicPath: ServerBuild["publicPath"];
  export const routes: ServerBuild["routes"];
}
