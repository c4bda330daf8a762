import type { IncomingMessage, ServerResponse } from "node:http";

/** Runs before the framework: answers the request itself (true) or lets it through, perhaps adjusted (false). */
export type PreAppHandler = (request: IncomingMessage, response: ServerResponse) => boolean;
