import { createRequire } from "node:module";
import { onlyClientFiles, type Handler } from "../client-files";

type Express = { static: (root: string, options?: object) => Handler };

/** Until the returned call, remix-serve's `express.static` looks up only what its folder held at start (docs/decisions/0102). */
export function lookUpBuiltFilesOnly(): () => void {
  const serve = createRequire(import.meta.url).resolve("@remix-run/serve/package.json");
  const express = createRequire(serve)("express") as Express;
  const staticOf = express.static;
  express.static = (root, options) => onlyClientFiles(staticOf(root, options), root);
  return () => void (express.static = staticOf);
}
