// Newman runs whose Retry-After waits pass on a mall's clock instead of the wall clock. A
// collection answers a 429 in its test script with `setTimeout(() => {}, Retry-After × 1000)` and
// sends the request again; Postman's sandbox takes its timers from Node's `timers` module when a run
// makes it. While a run made here is going, that module's setTimeout, asked for exactly the wait of
// a 429 newman has just received, moves the mall's clock that far through the mock's control API and
// then fires; every other timer is Node's own. The collections run as shipped.
import timers from 'node:timers';
import newman, { type NewmanRunOptions, type NewmanRunSummary } from 'newman';

/** Moves the mall's clock on by `ms` milliseconds. */
export type AdvanceClock = (ms: number) => Promise<unknown>;

let runsGoing = 0;
const nodeSetTimeout = timers.setTimeout;
/** The waits of the 429s received and not yet waited, in milliseconds, with the clock to move. */
const owed: { ms: number; advance: AdvanceClock }[] = [];
let failure: unknown;

/** Node's setTimeout, except for a wait owed to a 429: that one moves the mall's clock, then fires. */
const mallClockSetTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const index = owed.findIndex((wait) => wait.ms === ms);
  if (index < 0) return nodeSetTimeout(callback, ms, ...args);
  const [{ advance }] = owed.splice(index, 1) as [{ ms: number; advance: AdvanceClock }];
  return nodeSetTimeout(() => {
    advance(ms ?? 0).then(
      () => callback(...args),
      (error: unknown) => {
        failure ??= error;
        callback(...args);
      },
    );
  }, 0);
}) as typeof timers.setTimeout;

/**
 * Runs a collection in newman (`options`), each wait for a 429's Retry-After moving the mall's
 * clock with `advance` instead of passing on the wall clock. Rejects if newman fails or the clock
 * could not be moved.
 */
export async function runOnMallClock(
  options: NewmanRunOptions,
  advance: AdvanceClock,
): Promise<NewmanRunSummary> {
  if (runsGoing++ === 0) timers.setTimeout = mallClockSetTimeout;
  try {
    const summary = await new Promise<NewmanRunSummary>((resolve, reject) => {
      const emitter = newman.run(options, (error, done) => (error ? reject(error) : resolve(done)));
      emitter.on(
        'request',
        (_error, args: { response?: { code: number; headers: { get(name: string): unknown } } }) => {
          if (args.response?.code !== 429) return;
          // The collection's own reading of Retry-After (seconds, 1 when absent).
          const seconds = Number(args.response.headers.get('Retry-After')) || 1;
          owed.push({ ms: seconds * 1000, advance });
        },
      );
    });
    if (failure) throw failure;
    return summary;
  } finally {
    if (--runsGoing === 0) {
      timers.setTimeout = nodeSetTimeout;
      owed.length = 0;
      failure = undefined;
    }
  }
}
