/**
 * How the bare baseline is served (bench/support/servers.ts): React Router's
 * own server, with nothing preloaded (the app carries no router patch on
 * React Router 8, whose matching has the same work built in).
 */
export const BASELINE_SERVE = {
  /** The server's binary in node_modules/.bin. */
  bin: "react-router-serve",
  /** Modules preloaded with `--import` before the framework loads. */
  preload: [] as string[],
  /** What the server prints, on either pipe, once it listens. */
  readyWhen: ["[react-router-serve]"],
};
