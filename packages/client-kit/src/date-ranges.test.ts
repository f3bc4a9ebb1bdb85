import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitDateRange } from './date-ranges.js';

describe('splitDateRange', () => {
  it('cuts a range into consecutive chunks of at most maxDays', () => {
    expect(splitDateRange({ start: '2026-01-01', end: '2026-03-15' }, { maxDays: 31 })).toEqual([
      { start: '2026-01-01', end: '2026-01-31' },
      { start: '2026-02-01', end: '2026-03-03' },
      { start: '2026-03-04', end: '2026-03-15' },
    ]);
  });

  it('starts a new chunk at a boundary date', () => {
    expect(
      splitDateRange({ start: '2022-12-20', end: '2023-01-10' }, { maxDays: 31, boundaries: ['2023-01-01'] }),
    ).toEqual([
      { start: '2022-12-20', end: '2022-12-31' },
      { start: '2023-01-01', end: '2023-01-10' },
    ]);
  });

  it('keeps a one-day range whole and rejects crossed or malformed ranges', () => {
    expect(splitDateRange({ start: '2026-05-05', end: '2026-05-05' }, { maxDays: 7 })).toEqual([
      { start: '2026-05-05', end: '2026-05-05' },
    ]);
    expect(() => splitDateRange({ start: '2026-05-06', end: '2026-05-05' }, { maxDays: 7 })).toThrow(
      RangeError,
    );
    expect(() => splitDateRange({ start: '2026/05/06', end: '2026-05-07' }, { maxDays: 7 })).toThrow(
      RangeError,
    );
  });

  it('covers every day exactly once, in order, within maxDays (property)', () => {
    const day = fc.integer({ min: 18_000, max: 21_000 });
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 800 }),
        fc.integer({ min: 1, max: 120 }),
        (first, length, maxDays) => {
          const iso = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
          const chunks = splitDateRange(
            { start: iso(first), end: iso(first + length) },
            { maxDays, boundaries: ['2023-01-01'] },
          );
          const days = chunks.flatMap(({ start, end }) => {
            const a = Date.parse(start) / 86_400_000;
            const b = Date.parse(end) / 86_400_000;
            expect(b - a + 1).toBeLessThanOrEqual(maxDays);
            return Array.from({ length: b - a + 1 }, (_, i) => a + i);
          });
          expect(days).toEqual(Array.from({ length: length + 1 }, (_, i) => first + i));
        },
      ),
    );
  });
});
