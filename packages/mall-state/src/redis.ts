// The `./redis` entry of @mall-api/mall-state: the per-mall state shared by replicas in Redis. Kept
// apart from the main entry because it loads ioredis (an optional peer), so a process that never
// asks for Redis runs without it installed.
export { redisClockOffsets } from './redis/redis-clock-offsets.js';
export {
  cachedKey,
  connectRedis,
  type RedisConnectionOptions,
  type SharedRedis,
} from './redis/redis-connection.js';
export { redisMallVersions } from './redis/redis-mall-versions.js';
export type { ReadCache } from './redis/redis-read-cache.js';
export { openRedisState, type RedisState } from './redis/redis-state.js';
