// The offsets of the malls' clocks in Redis, one key per mall (`<prefix>mall:<id>:clock`), so a
// clock moved on one replica is the clock of every replica; moving forward is one INCRBYFLOAT, so
// two replicas advancing at once both count. What reads them per request is malls/mall-clocks.ts.
import type { ClockOffsetStore } from '../malls/mall-clocks.js';
import { mallKey, type SharedRedis } from './redis-connection.js';

/** Creates the offset store over the shared connection. */
export function redisClockOffsets(shared: SharedRedis): ClockOffsetStore {
  const key = (mallId: string) => `${mallKey(shared, mallId)}clock`;
  return {
    get: (mallId) => shared.run(async (client) => Number((await client.get(key(mallId))) ?? 0)),
    add: (mallId, ms) => shared.run(async (client) => Number(await client.incrbyfloat(key(mallId), ms))),
    put: (mallId, offsetMs) => shared.run(async (client) => void (await client.set(key(mallId), offsetMs))),
    delete: (mallId) => shared.run(async (client) => void (await client.del(key(mallId)))),
  };
}
