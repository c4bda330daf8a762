/** What the sidecar (sidecar.ts) and the process that starts it (start.ts) agree on. Only erasable TypeScript. */

/** Spotlight's own default port, where the SDKs look without a URL. */
export const DEFAULT_PORT = 8969;
export const HOST = "127.0.0.1";

/** Its one message on the IPC channel. */
export type SidecarMessage = { listening: { address: string; port: number } } | { failed: string };
