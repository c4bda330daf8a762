import { onlyClientFiles, type Handler } from "../client-files";
import { requireFromServe } from "./serve-modules-first";

type Express = { static: (root: string, options?: object) => Handler };

/** Until the returned call, remix-serve's first `express.static` (the client folder; `public/`'s is dropped unread) looks up only what its folder held at start (docs/decisions/0102). */
export function lookUpBuiltFilesOnly(): () => void {
  const express = requireFromServe("express") as Express;
  const staticOf = express.static;
  const restore = () => void (express.static = staticOf);
  express.static = (root, options) => {
    restore();
    return onlyClientFiles(staticOf(root, options), root);
  };
  return restore;
}
