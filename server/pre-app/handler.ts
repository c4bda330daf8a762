import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A pre-app handler sees each request before Express and the framework (the
 * app) do: it answers the request itself (true) or lets it through (false),
 * sometimes after adjusting it (a header, the target). Readiness, the request
 * guards, the body limit, the manifest guard and the Sentry tunnel are pre-app
 * handlers; what runs them differs by tree (on Remix 2, server/adapter/http-server.ts).
 */
export type PreAppHandler = (request: IncomingMessage, response: ServerResponse) => boolean;
