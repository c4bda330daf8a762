import path from "node:path";

/**
 * How the bare baseline is served (bench/support/servers.ts): the framework's
 * own server, and, on Remix 2, Remix's unpatched packages preloaded first: the
 * app patches Remix's router and server renderer (docs/decisions/0030, 0103),
 * and bare means without those patches. The React Router 8 upgrade replaces
 * this file (no patch there).
 */
export const BASELINE_SERVE = {
  /** The server's command, before the server bundle's path: remix-serve's binary. */
  command: [path.join(import.meta.dirname, "../../node_modules/.bin/remix-serve")],
  /** Modules preloaded with `--import` before the framework loads. */
  preload: [path.join(import.meta.dirname, "unpatched-packages.mjs")],
  /** What the server prints, on either pipe, once it listens with the preloads in effect. */
  readyWhen: ["[remix-serve]", "[bench] baseline uses the unpatched packages"],
};
