import { onlyClientFiles, type Handler } from "../client-files";
import { requireFromServe } from "./serve-modules-first";

type Express = { static: (root: string, options?: object) => Handler };

/** Until the returned call, remix-serve's `express.static` looks up only what its folder held at start (docs/decisions/0102). */
export function lookUpBuiltFilesOnly(): () => void {
  const express = requireFromServe("express") as Express;
  const staticOf = express.static;
  express.static = (root, options) => onlyClientFiles(staticOf(root, options), root);
  return () => void (express.static = staticOf);
}
