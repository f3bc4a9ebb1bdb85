// The offsets of the malls' clocks in Redis, one key per mall (`<prefix>mall:<id>:clock`), so a
// clock moved on one replica is the clock of every replica; moving forward is one INCRBYFLOAT, so
// two replicas advancing at once both count. Reading an offset (once per request) is one script
// that also reads Redis's clock (TIME), so the store knows how far Redis's clock runs ahead of this
// process's (`skewMs`) at no extra round trip: the malls' clocks of every replica then follow
// Redis's one clock, not each replica's own. What reads them per request is malls/mall-clocks.ts.
import type { Result } from 'ioredis';
import type { ClockOffsetStore } from '../malls/mall-clocks.js';
import { mallKey, type SharedRedis } from './redis-connection.js';

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

/** Creates the offset store over the shared connection. */
export function redisClockOffsets(shared: SharedRedis): ClockOffsetStore {
  const key = (mallId: string) => `${mallKey(shared, mallId)}clock`;
  shared.client.defineCommand('mallClockOffsetAndTime', { numberOfKeys: 1, lua: offsetAndTimeScript });
  let skewMs = 0;
  return {
    get: (mallId) =>
      shared.run(async (client) => {
        const sent = Date.now();
        const [offset, seconds, micros] = await client.mallClockOffsetAndTime(key(mallId));
        // Redis read its clock about halfway between sending and receiving.
        skewMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (sent + Date.now()) / 2;
        return Number(offset ?? 0);
      }),
    add: (mallId, ms) => shared.run(async (client) => Number(await client.incrbyfloat(key(mallId), ms))),
    put: (mallId, offsetMs) => shared.run(async (client) => void (await client.set(key(mallId), offsetMs))),
    delete: (mallId) => shared.run(async (client) => void (await client.del(key(mallId)))),
    skewMs: () => skewMs,
  };
}
