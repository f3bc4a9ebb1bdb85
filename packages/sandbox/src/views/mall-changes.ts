// Which malls changed their collection data or were created or dropped, in order, so a figure
// summed over every mall is brought up to date by recounting only the malls changed since. The log
// keeps the latest changes only; a figure older than the log is recomputed whole.

/** A log of mall changes. */
export interface MallChanges {
  /** Notes that a mall changed. */
  mark(mallId: string): void;
  /** The position of the latest change. */
  position(): number;
  /** The malls changed after `position`, or undefined when the log no longer reaches back there. */
  since(position: number): ReadonlySet<string> | undefined;
}

/** Creates a log keeping the latest `kept` changes. */
export function createMallChanges(kept = 4_096): MallChanges {
  let log: string[] = [];
  let first = 0; // position of log[0] minus one
  return {
    mark(mallId) {
      log.push(mallId);
      if (log.length > 2 * kept) {
        first += log.length - kept;
        log = log.slice(-kept);
      }
    },
    position: () => first + log.length,
    since(position) {
      if (position < first) return undefined;
      return new Set(log.slice(position - first));
    },
  };
}
