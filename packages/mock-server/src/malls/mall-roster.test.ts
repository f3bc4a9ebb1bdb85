// The mall roster at the function: the least recently used mall goes first past the cap, an idle
// mall goes on the next touch or listing, a touch makes a mall the most recent, and its limits
// are checked.
import { describe, expect, it } from 'vitest';
import { createMallRoster } from './mall-roster.js';

describe('mall roster', () => {
  it('drops the least recently used mall past its cap', () => {
    const dropped: string[] = [];
    const roster = createMallRoster((mallId) => dropped.push(mallId), { maxMalls: 2, idleMs: 0 });
    roster.touch('a');
    roster.touch('b');
    roster.touch('a');
    roster.touch('c');
    expect(dropped).toEqual(['b']);
    expect(roster.mallIds()).toEqual(['a', 'c']);
  });

  it('drops malls idle past the idle limit, oldest first, and keeps the rest', () => {
    let now = 0;
    const dropped: string[] = [];
    const roster = createMallRoster(
      (mallId) => dropped.push(mallId),
      { idleMs: 1_000 },
      () => now,
    );
    roster.touch('early');
    now = 600;
    roster.touch('later');
    now = 1_000;
    expect(roster.mallIds()).toEqual(['later']);
    expect(dropped).toEqual(['early']);
    now = 1_500;
    roster.touch('later');
    now = 2_400;
    expect(roster.mallIds()).toEqual(['later']);
  });

  it('refuses limits that cannot hold a mall', () => {
    expect(() => createMallRoster(() => {}, { maxMalls: 0 })).toThrow(RangeError);
    expect(() => createMallRoster(() => {}, { idleMs: -1 })).toThrow(RangeError);
  });
});
