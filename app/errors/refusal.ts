/**
 * A request the client got wrong, as opposed to a failure of ours: a 4xx with a
 * short answer, one info line, no Sentry event (app/errors/refusal.server.ts).
 */
export interface Refusal {
  /** The answer's status: 400, 403, 405, 413, 415… never 5xx. */
  status: number;
  /** What the client got wrong, for the log line (`cross-origin action`). */
  reason: string;
  /** Headers the answer must carry (`Allow` on a 405). */
  headers?: Record<string, string>;
}
