import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A handler in front of the framework: answers the request itself (true) or
 * lets it through (false), sometimes after adjusting it (a header, the
 * target). Readiness, the request guards, the body limit, the manifest guard
 * and the Sentry tunnel are front handlers; what puts them in front of the
 * framework differs by tree (on Remix 2, server/adapter/http-server.ts).
 */
export type FrontHandler = (request: IncomingMessage, response: ServerResponse) => boolean;
