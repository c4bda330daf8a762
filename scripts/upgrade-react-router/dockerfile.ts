/**
 * The image on React Router 8 runs the app's own server (docs/decisions/0067):
 * `node server.mjs build/server/index.js`, with `server.mjs` copied in place of
 * the preload. Nothing is patched (docs/decisions/0071): the patches of the
 * Remix image, and the step that applies them, go. Applied after the source
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
  [
    "the build needs Vite, Remix's compiler, Sentry's plugin.",
    "the build needs Vite, React Router's compiler, Sentry's plugin.",
  ],
  // No patch to copy or apply, in either install stage.
  [
    "# npm ci's postinstall applies them (docs/decisions/0030-route-matching-cache.md, 0097, 0103).\nCOPY patches/*.patch ./patches/\n",
    "",
  ],
  ["and no install script runs (our patches are\n#    applied).", "and no install script runs."],
  [
    "COPY patches/*.patch ./patches/\n# No install script runs, but our own patches are applied (route matching, single fetch, the renderer's routes).\n",
    "# No install script runs.\n",
  ],
  [
    "--ignore-scripts --no-audit --no-fund \\\n    && npx --no-install patch-package --error-on-fail \\\n",
    "--ignore-scripts --no-audit --no-fund \\\n",
  ],
];

/** The build context's allowlist: the server's entry instead of the preload, and no patches. */
const IGNORE_LINES: readonly (readonly [string, string])[] = [
  ["!boot.mjs\n", "!server.mjs\n"],
  ["!patches/*.patch\n", ""],
];

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
