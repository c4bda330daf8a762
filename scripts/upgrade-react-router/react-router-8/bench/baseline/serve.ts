import path from "node:path";

/**
 * How the bare baseline is served (bench/support/servers.ts): by server.mjs
 * beside this file, which does for a server build what `react-router-serve`
 * does, with nothing preloaded (nothing is patched on React Router 8).
 */
export const BASELINE_SERVE = {
  /** The server's command, before the server bundle's path. */
  command: [process.execPath, path.join(import.meta.dirname, "server.mjs")],
  /** Modules preloaded with `--import` before the framework loads. */
  preload: [] as string[],
  /** What the server prints, on either pipe, once it listens. */
  readyWhen: ["[baseline] listening"],
};
