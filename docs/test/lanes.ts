// Test support: work in lanes. The lanes run side by side; within a lane, each piece of work
// starts once the one before it has settled (a failure is the caller's to see, and does not stop
// the lane).

/** A queue of lanes: `run(lane, work)` resolves to what `work` resolved to, started in its turn. */
export function laneQueue<Lane>(): <T>(lane: Lane, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<Lane, Promise<unknown>>();
  return (lane, work) => {
    const done = (tails.get(lane) ?? Promise.resolve()).then(work);
    tails.set(
      lane,
      done.catch(() => undefined),
    );
    return done;
  };
}
