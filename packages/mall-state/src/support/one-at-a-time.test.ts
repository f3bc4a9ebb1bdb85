// One change at a time per key: work under a key starts after the work before it settled, failed
// or not, in the order asked; keys do not wait for each other.
import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time.js';

describe('oneAtATime', () => {
  it('starts work under a key after the earlier work under it settled, failed or not', async () => {
    const queue = oneAtATime();
    const log: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const first = queue('a', step('first', true));
    const second = queue('a', step('second'));
    const other = queue('b', step('other'));
    await expect(first).rejects.toThrow('first');
    expect(await second).toBe('second');
    expect(await other).toBe('other');
    expect(log.indexOf('second start')).toBeGreaterThan(log.indexOf('first end'));
    expect(log.indexOf('other start')).toBeLessThan(log.indexOf('first end'));
  });
});
