// Work in time slices: every item handled once and in order, the event loop running between
// slices (a timer fires before a long run ends), each slice run by its wrapper, an error stopping
// the run.
import { describe, expect, it } from 'vitest';
import { inSlices } from './time-slice.js';

/** Spins for `ms` of wall time (a piece of work that holds the thread). */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('inSlices', () => {
  it('handles every item in order, letting a timer set before it fire before it ends', async () => {
    const seen: number[] = [];
    let ended = false;
    let firedBeforeEnd: boolean | undefined;
    setTimeout(() => {
      firedBeforeEnd = !ended;
    }, 0);
    await inSlices(
      Array.from({ length: 50 }, (_, i) => i),
      (item) => {
        busy(1);
        seen.push(item);
      },
      undefined,
      5,
    );
    ended = true;
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(firedBeforeEnd).toBe(true);
  });

  it('runs each slice through its wrapper and stops at the first error', async () => {
    const slices: number[][] = [];
    let current: number[] = [];
    const run = inSlices(
      Array.from({ length: 40 }, (_, i) => i),
      (item) => {
        if (item === 30) throw new Error('refused 30');
        busy(1);
        current.push(item);
      },
      (work) => {
        current = [];
        try {
          work();
        } finally {
          slices.push(current);
        }
      },
      5,
    );
    await expect(run).rejects.toThrow('refused 30');
    expect(slices.length).toBeGreaterThan(2);
    expect(slices.flat()).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('handles every item before returning when slices are unbounded', () => {
    const seen: number[] = [];
    void inSlices([1, 2, 3], (item) => seen.push(item), undefined, Number.POSITIVE_INFINITY);
    expect(seen).toEqual([1, 2, 3]);
  });
});
