// Time as an argument: the `Clock` and `Sleep` types every limiter and scheduler takes, the real
// ones, and a manual clock that runs in simulated time for tests and simulations (sleepers wake
// only when the clock is advanced). Not for measuring durations of real work.

/** Returns the current time in ms since the epoch. */
export type Clock = () => number;

/**
 * Resolves after `ms` milliseconds, or early once `signal` aborts. It may also reject on abort;
 * callers treat both the same.
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real clock, `Date.now`. */
export const systemClock: Clock = () => Date.now();

/** The real sleep: a timer that is cleared when `signal` aborts. */
export const systemSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });

/** A clock that moves only when told to, with a `sleep` that wakes in simulated time. */
export interface ManualClock {
  /** Current simulated time (ms). */
  readonly now: Clock;
  /** Sleeps in simulated time: resolves when the clock reaches `now + ms`, or when `signal` aborts. */
  readonly sleep: Sleep;
  /**
   * Moves time forward by `ms`, waking every sleeper whose time has come, in order. Their
   * continuations run after it returns, so they see the final time; {@link ManualClock.run}
   * advances one wake-up at a time instead.
   */
  advance(ms: number): void;
  /** Number of sleepers not yet woken. */
  readonly pendingSleeps: number;
  /**
   * Lets `work` run, advancing time to the next sleeper's wake-up whenever nothing else can
   * happen, until `work` settles; then returns its result (or throws its error). Work that waits
   * on something other than this clock (real I/O) is given event-loop turns, not simulated time.
   */
  run<T>(work: Promise<T>): Promise<T>;
}

interface Sleeper {
  readonly wakeAt: number;
  readonly wake: () => void;
}

/** Creates a {@link ManualClock} starting at `startMs`. */
export function manualClock(startMs = 0): ManualClock {
  let nowMs = startMs;
  let sleepers: Sleeper[] = [];

  /** The earliest sleeper (the first to sleep among equals), if any. */
  const next = (): Sleeper | undefined =>
    sleepers.reduce<Sleeper | undefined>((a, b) => (a && a.wakeAt <= b.wakeAt ? a : b), undefined);

  const advanceTo = (targetMs: number): void => {
    for (let first = next(); first !== undefined && first.wakeAt <= targetMs; first = next()) {
      nowMs = Math.max(nowMs, first.wakeAt);
      sleepers = sleepers.filter((sleeper) => sleeper !== first);
      first.wake();
    }
    nowMs = Math.max(nowMs, targetMs);
  };

  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) {
        resolve();
        return;
      }
      const sleeper: Sleeper = {
        wakeAt: nowMs + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', cancel);
          resolve();
        },
      };
      const cancel = (): void => {
        sleepers = sleepers.filter((other) => other !== sleeper);
        resolve();
      };
      sleepers.push(sleeper);
      signal?.addEventListener('abort', cancel, { once: true });
    });

  const idle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  return {
    now: () => nowMs,
    sleep,
    advance: (ms) => advanceTo(nowMs + ms),
    get pendingSleeps() {
      return sleepers.length;
    },
    async run<T>(work: Promise<T>): Promise<T> {
      let settled = false;
      const watched = work.finally(() => {
        settled = true;
      });
      watched.catch(() => undefined);
      let quietTurns = 0;
      while (!settled) {
        await idle();
        if (settled) break;
        const first = next();
        // Give pending I/O a few turns before concluding that only simulated time can make progress.
        quietTurns += 1;
        if (first === undefined || quietTurns < 3) continue;
        quietTurns = 0;
        advanceTo(first.wakeAt);
      }
      return watched;
    },
  };
}
