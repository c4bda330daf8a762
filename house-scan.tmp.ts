import { readFileSync } from "node:fs";
import { runtimeFiles } from "./scripts/repo-paths/import-graph";
import { functionTypes, patchesIn } from "./scripts/repo-paths/runtime-patches";
const O = "scripts/upgrade-react-router/react-router-8/";
const files = [...runtimeFiles(".", ["app", "server", O + "app", O + "server"]), "boot.mjs", O + "server.mjs"];
const sources = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));
const types = functionTypes(sources);
console.log([...types]);
for (const [f, s] of sources) for (const p of patchesIn(f, s, types)) console.log(`${p.file}:${p.line} ${p.target}`);
