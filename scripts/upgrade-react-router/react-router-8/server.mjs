// `npm start` (docs/decisions/0067): the boot first; plain JavaScript, so any Node can be told it is too old.
import { existsSync, readFileSync } from "node:fs";
import module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** @type {(msg: string, fields?: Record<string, unknown>) => never} One JSON line, exit 1. */
function cannotStart(msg, fields) {
  const line = { level: "fatal", time: new Date().toISOString(), msg: `cannot start: ${msg}`, ...fields };
  process.stdout.write(JSON.stringify(line) + "\n");
  process.exit(1);
}

const { engines } = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8"));
const needed = Number(/\d+/.exec(engines.node)?.[0]); // `engines.node` is ">=<major>"
if (Number(process.versions.node.split(".")[0]) < needed) {
  cannotStart(`Node ${needed} or newer is needed, this is ${process.version} (package.json: engines)`);
}

// Stacks of modules loaded from here on name `app/…` files and lines.
module.setSourceMapsSupport(true);

const serverBuildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const boot = path.join(path.dirname(serverBuildPath), "boot.js");
const file = path.relative(process.cwd(), boot);
if (!existsSync(boot) || !existsSync(serverBuildPath)) {
  cannotStart(
    `no server build in ${path.relative(process.cwd(), path.dirname(serverBuildPath))}: run \`npm run build\``,
  );
}
const loaded = await import(pathToFileURL(boot).href).catch((error) =>
  cannotStart("the server build cannot be loaded: run `npm run build`", {
    file,
    error: `${error?.code ?? error?.name}: ${error?.message}`,
  }),
);
if (typeof loaded.startServer !== "function") {
  cannotStart("the server build is of another version of the app: run `npm run build`", { file });
}
const { listen } = await loaded.startServer({ mode: "production", serverBuildPath });
await listen();
