import { describe, expect, it } from 'vitest';
import { manualClock, systemSleep } from './clock.js';

describe('manualClock', () => {
  it('wakes sleepers in time order only when advanced far enough', async () => {
    const clock = manualClock(1_000);
    const woke: string[] = [];
    const late = clock.sleep(300).then(() => woke.push('late'));
    const early = clock.sleep(100).then(() => woke.push('early'));
    clock.advance(99);
    await Promise.resolve();
    expect(woke).toEqual([]);
    clock.advance(1_000);
    await Promise.all([late, early]);
    expect(woke).toEqual(['early', 'late']);
    expect(clock.now()).toBe(2_099);
  });

  it('lets a sleeper go early when its signal aborts', async () => {
    const clock = manualClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(60_000, controller.signal);
    controller.abort();
    await sleeping;
    expect([clock.now(), clock.pendingSleeps]).toEqual([0, 0]);
  });

  it('run advances simulated time until the work settles, and passes on its error', async () => {
    const clock = manualClock();
    const work = async () => {
      await clock.sleep(5_000);
      await clock.sleep(2_000);
      return clock.now();
    };
    expect(await clock.run(work())).toBe(7_000);
    const failing = async () => {
      await clock.sleep(10);
      throw new Error('boom');
    };
    await expect(clock.run(failing())).rejects.toThrow('boom');
  });
});

describe('systemSleep', () => {
  it('resolves at once when its signal aborts instead of waiting the full time', async () => {
    const controller = new AbortController();
    const sleeping = systemSleep(60_000, controller.signal);
    controller.abort();
    await expect(sleeping).resolves.toBeUndefined();
    const alreadyAborted = new AbortController();
    alreadyAborted.abort();
    await expect(systemSleep(60_000, alreadyAborted.signal)).resolves.toBeUndefined();
  });
});
