// One change at a time per key: work queued under a key starts once the work queued before it under
// that key has settled (fulfilled or rejected), so two control changes to one mall never interleave
// while each yields to the event loop; keys do not wait for each other, and an empty queue is forgotten.

/** Runs async work one at a time per key. */
export type OneAtATime = <R>(key: string, work: () => Promise<R>) => Promise<R>;

/** Creates an empty set of queues. */
export function oneAtATime(): OneAtATime {
  const tails = new Map<string, Promise<unknown>>();
  return <R>(key: string, work: () => Promise<R>): Promise<R> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
