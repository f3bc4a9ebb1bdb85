// The announced newest version of each mall in Redis (store/mall-versions.ts): one key per mall,
// `<prefix>cached:mall-version:<id>`, announced by a script that never lowers it. A replica reads
// its malls' versions on every request and they change only when a mall does, so replicas keep a
// copy Redis invalidates (redis-read-cache.ts): a read of a mall whose version this replica holds
// asks Redis nothing, and an announcement reaches every replica before the change it announces
// commits.
import type { Result } from 'ioredis';
import type { SharedMallVersions } from '../store/mall-versions.js';
import { cachedKey, type SharedRedis } from './redis-connection.js';

/** KEYS: the mall's version. ARGV: a version. Raises the version to it; a lower one changes nothing. */
const raiseScript = `
local held = tonumber(redis.call('GET', KEYS[1]))
if not held or held < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 0`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** {@link raiseScript}. */
    mallVersionRaise(version: string, to: number): Result<number, Context>;
  }
}

/** Creates the announced versions over the shared connection. */
export function redisMallVersions(shared: SharedRedis): SharedMallVersions {
  const { cache } = shared;
  const key = (mallId: string) => cachedKey(shared, 'mall-version', mallId);
  shared.client.defineCommand('mallVersionRaise', { numberOfKeys: 1, lua: raiseScript });
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
        await client.mallVersionRaise(key(mallId), version);
      }),
  };
}
