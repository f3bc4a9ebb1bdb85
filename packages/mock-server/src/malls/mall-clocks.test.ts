// Per-mall clocks at the function: each mall moves alone, never backward by `advance`, and reset
// puts it back on the base time.
import { describe, expect, it } from 'vitest';
import { createMallClocks } from './mall-clocks.js';

describe('mall clocks', () => {
  it('moves one mall’s time and not another’s', () => {
    let base = 1_000;
    const clocks = createMallClocks(() => base);
    clocks.advance('a', 500);
    base += 10;
    expect(clocks.now('a')).toBe(1_510);
    expect(clocks.now('b')).toBe(1_010);
    clocks.set('b', 5_000);
    expect(clocks.now('b')).toBe(5_000);
    clocks.reset('a');
    expect(clocks.now('a')).toBe(1_010);
  });
  it('refuses to advance by a negative or infinite amount', () => {
    const clocks = createMallClocks(() => 0);
    expect(() => clocks.advance('a', -1)).toThrow(RangeError);
    expect(() => clocks.advance('a', Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(clocks.offset('a')).toBe(0);
  });
});
