/** The one place a team opts in to more in failure reports: docs/errors.md, "What a report carries". */
export const REPORT_OPTIONS = {
  /** A thrown 5xx body as one masked line of at most 200 characters: its values may name a user. */
  thrownBodies: false,
};

export type ReportOptions = typeof REPORT_OPTIONS;
