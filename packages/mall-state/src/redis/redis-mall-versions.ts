// The announced newest version of each mall in Redis (store/mall-versions.ts): one sorted set,
// `<prefix>mall-versions`, a member per mall scored by its version, so reading one is a ZSCORE and
// announcing one a `ZADD … GT`, which never lowers a score (Redis ≥ 6.2; 7 is checked at start).
import type { SharedMallVersions } from '../store/mall-versions.js';
import type { SharedRedis } from './redis-connection.js';

/** Creates the announced versions over the shared connection. */
export function redisMallVersions(shared: SharedRedis): SharedMallVersions {
  const key = `${shared.prefix}mall-versions`;
  return {
    get: (mallId) =>
      shared.run(async (client) => {
        const score = await client.zscore(key, mallId);
        return score === null ? undefined : Number(score);
      }),
    raise: (mallId, version) =>
      shared.run(async (client) => void (await client.zadd(key, 'GT', version, mallId))),
  };
}
