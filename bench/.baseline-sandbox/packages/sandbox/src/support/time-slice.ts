// Long work over many items without freezing the process: the items are handled one by one in
// slices of about `sliceMs` of work, and between two slices the event loop runs (a `setImmediate`
// turn), so requests, timers and signals are served while a fixture, a snapshot or a reset is
// built. Each slice may run inside a wrapper (a store transaction), so a slice's writes commit
// together. Not a scheduler: slices of one call run in order, and nothing here decides which call
// goes first.
import { nextTurn } from '@mall-api/mall-state';

/** The work between two turns of the event loop, in milliseconds (well under the 50 ms bound). */
export const defaultSliceMs = 10;

/**
 * Calls `each` for every item in order, yielding to the event loop after each slice of about
 * `sliceMs`; `slice` runs each slice (e.g. in a transaction: an error thrown by `each` leaves the
 * slice through it and rejects the returned promise, and no later item is handled). With
 * `sliceMs` `Infinity` every item is handled, in one slice, before this returns its promise.
 */
export async function inSlices<T>(
  items: Iterable<T>,
  each: (item: T, index: number) => void,
  slice: (run: () => void) => void = (run) => run(),
  sliceMs = defaultSliceMs,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let index = 0;
  let done = false;
  while (!done) {
    const until = performance.now() + sliceMs;
    slice(() => {
      for (;;) {
        const next = iterator.next();
        if (next.done) {
          done = true;
          return;
        }
        each(next.value, index);
        index += 1;
        if (performance.now() >= until) return;
      }
    });
    if (!done) await nextTurn();
  }
}
