// remix-serve's command swaps Node's fetch, Request, Response… for @remix-run/node's copy of undici.
import { requireFromServe } from "./serve-modules-first";

type RemixNode = { installGlobals: (options?: { nativeFetch?: boolean }) => void };

/** With `nativeFetch` Node's own stay: they are undici's already, a newer one (docs/decisions/0101). */
export function keepNodeFetch(): void {
  const remixNode = requireFromServe("@remix-run/node") as RemixNode;
  const install = remixNode.installGlobals;
  remixNode.installGlobals = (options) => void (options?.nativeFetch || install(options));
}
