// Which malls changed their collection data or were created or dropped, in order, so a figure
// summed over every mall is brought up to date by recounting only the malls changed since. The log
// keeps the latest changes only; a figure older than the log is recomputed whole.

/** Creates a log keeping the latest `kept` changes. */
export function createMallChanges(kept = 4_096) {
  let log: string[] = [];
  let first = 0; // position of log[0] minus one
  return {
    /** Notes that a mall changed. */
    mark(mallId: string): void {
      log.push(mallId);
      if (log.length > 2 * kept) {
        first += log.length - kept;
        log = log.slice(-kept);
      }
    },
    /** The position of the latest change. */
    position: () => first + log.length,
    /** The malls changed after `position`, or undefined when the log no longer reaches back there. */
    since(position: number): ReadonlySet<string> | undefined {
      if (position < first) return undefined;
      return new Set(log.slice(position - first));
    },
  };
}

/** A log of mall changes (see {@link createMallChanges}). */
export type MallChanges = ReturnType<typeof createMallChanges>;
