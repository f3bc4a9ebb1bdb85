// Per-mall clocks at the function: each mall moves alone, never backward by `advance`, and reset
// puts it back on the base time; on Redis, real time is Redis's clock, not the reading replica's.
import { describe, expect, it, vi } from 'vitest';
import { redisClockOffsets } from '../redis/redis-clock-offsets.js';
import { useTestRedis } from '../testing/shared-redis.js';
import { type ClockOffsetStore, createMallClocks, memoryClockOffsets } from './mall-clocks.js';

const redis = useTestRedis();
const implementations: [string, () => Promise<ClockOffsetStore>][] = [
  ['memory', async () => memoryClockOffsets()],
  ['redis', async () => redisClockOffsets(await redis.connect())],
];

describe.each(implementations)('mall clocks (%s)', (_, offsets) => {
  it('moves one mall’s time and not another’s', async () => {
    let base = 1_000;
    const clocks = createMallClocks(() => base, await offsets());
    await clocks.advance('a', 500);
    base += 10;
    expect(clocks.now('a')).toBe(1_510);
    expect(clocks.now('b')).toBe(1_010);
    await clocks.set('b', 5_000);
    expect(clocks.now('b')).toBe(5_000);
    await clocks.reset('a');
    expect(clocks.now('a')).toBe(1_010);
  });
  it('refuses to advance by a negative or infinite amount', async () => {
    const clocks = createMallClocks(() => 0, await offsets());
    await expect(clocks.advance('a', -1)).rejects.toThrow(RangeError);
    await expect(clocks.advance('a', Number.POSITIVE_INFINITY)).rejects.toThrow(RangeError);
    expect(clocks.offset('a')).toBe(0);
  });
  it('sees a clock another process moved once it refreshes the mall', async () => {
    const store = await offsets();
    const here = createMallClocks(() => 0, store);
    const there = createMallClocks(() => 0, store);
    await there.advance('a', 700);
    await here.refresh('a');
    expect(here.now('a')).toBe(700);
    await there.reset('a');
    await here.refresh('a');
    expect(here.now('a')).toBe(0);
  });
});

describe('mall clocks (redis, on real time)', () => {
  it("keep Redis's time whatever the clock of the replica that reads them", async () => {
    const [here, ahead] = [
      createMallClocks(undefined, redisClockOffsets(await redis.connect())),
      createMallClocks(undefined, redisClockOffsets(await redis.connect())),
    ];
    await here.refresh('a');
    const onTime = here.now('a');
    // This replica's own clock runs 90 seconds ahead while it reads the mall's offset and time.
    const real = Date.now;
    const skewed = vi.spyOn(Date, 'now').mockImplementation(() => real() + 90_000);
    try {
      await ahead.refresh('a');
      expect(Math.abs(ahead.now('a') - onTime)).toBeLessThan(30_000);
    } finally {
      skewed.mockRestore();
    }
  });
});
