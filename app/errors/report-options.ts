/**
 * What the server's failure reports may carry (app/errors/server-failure.server.ts, thrown-response.server.ts).
 * The one place a team opts in; docs/errors.md, "What a report carries".
 */
export const REPORT_OPTIONS = {
  /**
   * Off: a thrown 5xx Response, `json()` or `data()` is reported by its status, status
   * text and body's shape (keys of a JSON object; type and length otherwise), never its
   * values. On: the log line's `err.body` and the event's `response` context also carry
   * the body as one masked line of at most 200 characters. Values may name a user.
   */
  thrownBodies: false,
};

export type ReportOptions = typeof REPORT_OPTIONS;
