/**
 * The image on React Router 8 runs the app's own server (docs/decisions/0067):
 * `node server.mjs build/server/index.js`, with `server.mjs` copied in place of
 * the preload, and the patch of react-router's route matching applied as the
 * Remix image applies its own (docs/decisions/0068). Applied after the source
 * rewrite (react-router-serve's names); a line it expects and does not find is
 * an error, so a change of the Dockerfile cannot silently leave the old
 * command in the upgraded image.
 */
const LINES: readonly (readonly [string, string])[] = [
  [
    "# The production image: the default build served by react-router-serve, nothing else.",
    "# The production image: the default build served by the app's own server (server.mjs), nothing else.",
  ],
  ["COPY package.json boot.mjs ./", "COPY package.json server.mjs ./"],
  [
    "# The base image's entrypoint script is cleared. react-router-serve's bin is dist/cli.js.",
    "# The base image's entrypoint script is cleared.",
  ],
  [
    'CMD ["node", "--import", "./boot.mjs", "node_modules/@react-router/serve/dist/cli.js", "build/server/index.js"]',
    'CMD ["node", "server.mjs", "build/server/index.js"]',
  ],
  // The patches stay (COPY patches/*.patch, npx --no-install patch-package --error-on-fail): now react-router's.
  [
    "# npm ci's postinstall applies them (docs/decisions/0030-route-matching-cache.md).",
    "# npm ci's postinstall applies them (docs/decisions/0068-react-router-8-route-matching-index.md).",
  ],
];

/** The build context's allowlist: the server's entry instead of the preload (the patches stay). */
const IGNORE_LINES: readonly (readonly [string, string])[] = [["!boot.mjs\n", "!server.mjs\n"]];

function replaceLines(name: string, text: string, lines: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [from, to] of lines) {
    if (!out.includes(from)) throw new Error(`${name}: expected the line ${JSON.stringify(from)}`);
    out = out.replace(from, to);
  }
  return out;
}

export const upgradeDockerfile = (text: string) => replaceLines("Dockerfile", text, LINES);
export const upgradeDockerignore = (text: string) => replaceLines(".dockerignore", text, IGNORE_LINES);
