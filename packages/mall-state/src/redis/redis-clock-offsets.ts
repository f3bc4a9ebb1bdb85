// The offsets of the malls' clocks in Redis, one key per mall (`<prefix>cached:clock:<id>`), shared
// by replicas; moving forward is one INCRBYFLOAT, so two replicas advancing at once both count.
// Offsets change rarely, so replicas keep a copy Redis invalidates (redis-read-cache.ts). Loading
// one also reads Redis's TIME (one script), so the store knows how far Redis's clock runs ahead
// (`skewMs`) at no extra round trip; an offset is loaded again after `skewEveryMs`, so the malls of
// every replica follow Redis's one clock.
import type { Result } from 'ioredis';
import type { ClockOffsetStore } from '../malls/mall-clocks.js';
import { cachedKey, changeCached, type SharedRedis } from './redis-connection.js';

/** KEYS: the mall's clock. Gives its offset (or false), then Redis's TIME (seconds, microseconds). */
const offsetAndTimeScript = `
local time = redis.call('TIME')
return {redis.call('GET', KEYS[1]), time[1], time[2]}`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** {@link offsetAndTimeScript}: the offset (null when none), then Redis's time. */
    mallClockOffsetAndTime(clock: string): Result<[string | null, string, string], Context>;
  }
}

/** How long a measure of Redis's clock against this process's is used, in milliseconds. */
export const skewEveryMs = 10_000;

/** A mall's clock key. */
export const clockKey = (shared: SharedRedis, mallId: string): string => cachedKey(shared, 'clock', mallId);

/** Creates the offset store over the shared connection. */
export function redisClockOffsets(shared: SharedRedis): ClockOffsetStore {
  shared.client.defineCommand('mallClockOffsetAndTime', { numberOfKeys: 1, lua: offsetAndTimeScript });
  let skewMs = 0;
  let measuredAt = Number.NEGATIVE_INFINITY;
  const load = (key: string) =>
    shared.run(async (client) => {
      const sent = Date.now();
      const [offset, seconds, micros] = await client.mallClockOffsetAndTime(key);
      // Redis read its clock about halfway between sending and receiving.
      measuredAt = Date.now();
      skewMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (sent + measuredAt) / 2;
      return Number(offset ?? 0);
    });
  const change = <T>(mallId: string, write: (key: string) => Promise<T>) =>
    changeCached(shared, clockKey(shared, mallId), write);
  return {
    get(mallId) {
      const key = clockKey(shared, mallId);
      if (Date.now() - measuredAt > skewEveryMs) shared.cache.forget(key);
      return shared.cache.read(key, () => load(key));
    },
    add: (mallId, ms) => change(mallId, async (key) => Number(await shared.client.incrbyfloat(key, ms))),
    put: (mallId, offsetMs) => change(mallId, async (key) => void (await shared.client.set(key, offsetMs))),
    delete: (mallId) => change(mallId, async (key) => void (await shared.client.del(key))),
    skewMs: () => skewMs,
  };
}
