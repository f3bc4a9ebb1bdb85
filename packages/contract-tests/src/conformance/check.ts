// The unit of a conformance run: a named check of one operation (or of the API) that sends what
// it needs through the client and returns the problems it found, or says why it was skipped.
/** What one check found. */
export type CheckOutcome = { readonly problems: readonly string[] } | { readonly skipped: string };

/** One check. */
export interface Check {
  /**
   * `requests`, `paging`, `filters`, `count`, `fields`, `embed`, `period`, `errors`, `auth`,
   * `rate-limit` or `sequence`.
   */
  readonly group: string;
  /** The operation it is about, or the API for API-wide checks. */
  readonly subject: string;
  readonly name: string;
  run(): Promise<CheckOutcome>;
}

/** A check's outcome as reported. */
export interface CheckResult {
  readonly group: string;
  readonly subject: string;
  readonly name: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Problems (failed) or the reason (skipped). */
  readonly details: readonly string[];
}
