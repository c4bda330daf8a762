// Preloaded (`--import`) by bench/channel-injection.ts for one side only: remix-serve's Express is
// loaded before Sentry starts, so the SDK's injection never rewrites it (it rewrites what loads later).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
createRequire(require.resolve("@remix-run/serve/package.json"))("express");
