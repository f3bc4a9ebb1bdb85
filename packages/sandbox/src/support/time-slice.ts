// Long work over many items without freezing the process: items are handled in slices of about
// `sliceMs`, and between slices the event loop runs (a `setImmediate` turn), so requests and timers
// are served while a fixture, snapshot or reset is built. A slice may run inside a wrapper (a store
// transaction) so its writes commit together; slices of one call run in order.
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
