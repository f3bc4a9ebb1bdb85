// The announced newest version of each mall in Redis (store/mall-storage.ts): one key per mall
// (`<prefix>cached:mall-version:<id>`) and every mall's in one hash (`…mall-versions:all`), both
// raised by one script that never lowers them; a committed drop takes its mall out of the hash
// unless a newer version was announced since. Replicas keep a copy Redis invalidates
// (redis-read-cache.ts), so a read of a mall whose version is held asks Redis nothing.
import type { Result } from 'ioredis';
import type { SharedMallVersions } from '../store/mall-storage.js';
import { cachedKey, type SharedRedis } from './redis-connection.js';

/**
 * KEYS: the mall's version, every mall's. ARGV: a version, the mall. Raises both to the version; a
 * lower one changes nothing.
 */
const raiseScript = `
local held = tonumber(redis.call('GET', KEYS[1]))
if not held or held < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
local listed = tonumber(redis.call('HGET', KEYS[2], ARGV[2]))
if not listed or listed < tonumber(ARGV[1]) then redis.call('HSET', KEYS[2], ARGV[2], ARGV[1]) end
return 0`;

/** KEYS: every mall's version. ARGV: the mall, its drop's version. Removes the mall if that is still its version. */
const forgetScript = `
if tonumber(redis.call('HGET', KEYS[1], ARGV[1])) == tonumber(ARGV[2]) then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** {@link raiseScript}. */
    mallVersionRaise(version: string, all: string, to: number, mallId: string): Result<number, Context>;
    /** {@link forgetScript}. */
    mallVersionForget(all: string, mallId: string, dropped: number): Result<number, Context>;
  }
}

/** Creates the announced versions over the shared connection. */
export function redisMallVersions(shared: SharedRedis): SharedMallVersions {
  const { cache } = shared;
  const key = (mallId: string) => cachedKey(shared, 'mall-version', mallId);
  const all = cachedKey(shared, 'mall-versions', 'all');
  shared.client.defineCommand('mallVersionRaise', { numberOfKeys: 2, lua: raiseScript });
  shared.client.defineCommand('mallVersionForget', { numberOfKeys: 1, lua: forgetScript });
  return {
    get(mallId) {
      const version = key(mallId);
      return cache.read(version, () =>
        shared.run(async (client) => {
          const held = await client.get(version);
          return held === null ? undefined : Number(held);
        }),
      );
    },
    raise: (mallId, version) =>
      shared.run(async (client) => {
        cache.forget(key(mallId));
        cache.forget(all);
        await client.mallVersionRaise(key(mallId), all, version, mallId);
      }),
    all: () =>
      cache.read(all, () =>
        shared.run(async (client) => {
          const versions = await client.hgetall(all);
          return new Map(Object.entries(versions).map(([mallId, version]) => [mallId, Number(version)]));
        }),
      ),
    forget: (mallId, version) =>
      shared.run(async (client) => {
        cache.forget(all);
        await client.mallVersionForget(all, mallId, version);
      }),
  };
}
