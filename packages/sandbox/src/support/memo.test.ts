// Memoization: one build per argument, and with a capacity only the latest used results kept.
import { describe, expect, it } from 'vitest';
import { memo } from './memo.js';

describe('memo', () => {
  it('builds once per argument when unbounded', () => {
    const builds: number[] = [];
    const square = memo((n: number) => {
      builds.push(n);
      return { n: n * n };
    });
    const first = square(3);
    for (let n = 0; n < 100; n++) square(n);
    expect(square(3)).toBe(first);
    expect(builds.filter((n) => n === 3)).toHaveLength(1);
    expect(builds).toHaveLength(100);
  });

  it('keeps only the latest `capacity` results used, building the others again', () => {
    const builds: number[] = [];
    const boxed = memo((n: number) => {
      builds.push(n);
      return { n };
    }, 2);
    const one = boxed(1);
    boxed(2);
    expect(boxed(1)).toBe(one); // used again: now the latest
    boxed(3); // past the capacity: 2, the least recently used, goes
    expect(boxed(1)).toBe(one);
    expect(builds).toEqual([1, 2, 3]);
    boxed(2);
    expect(builds).toEqual([1, 2, 3, 2]);
    expect(boxed(1)).toBe(one);
    boxed(3); // 3 went when 2 came back, 1 stayed as it was used since
    expect(builds).toEqual([1, 2, 3, 2, 3]);
  });
});
