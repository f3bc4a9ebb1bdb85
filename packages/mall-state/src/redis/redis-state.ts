// Everything the mocks share between requests in Redis (`--redis redis://…`) besides OAuth: connects
// once and builds the clock offsets and the per-mall stores over that connection, handing the
// connection on so the mock's OAuth store (its oauth/redis-oauth-store.ts) shares it. The one entry
// point to the Redis modules, loaded only when Redis is asked for, so the plain mock runs without
// ioredis installed. A Redis older than 7 is refused here, at start (redis-version.ts). Mall data
// is not here: that is the data storage (store/), which takes the announced mall versions built here.
import type { JournalLimits } from '../malls/journal.js';
import type { ClockOffsetStore } from '../malls/mall-clocks.js';
import type { MallStateStores } from '../malls/mall-state-stores.js';
import type { SharedMallVersions } from '../store/mall-versions.js';
import { redisClockOffsets } from './redis-clock-offsets.js';
import { connectRedis, type RedisConnectionOptions, type SharedRedis } from './redis-connection.js';
import { redisMallStores } from './redis-mall-stores.js';
import { redisMallVersions } from './redis-mall-versions.js';
import { checkRedisVersion } from './redis-version.js';

/** The shared state of one mock process. */
export interface RedisState {
  readonly clockOffsets: ClockOffsetStore;
  readonly stores: MallStateStores;
  /** Where replicas announce each mall's newest version in the database (for the data storage). */
  readonly mallVersions: SharedMallVersions;
  /** The connection, for other stores of the process to share (the OAuth store). */
  readonly connection: SharedRedis;
  /** Whether Redis is connected. */
  ready(): boolean;
  close(): Promise<void>;
}

/** Connects to Redis and builds the stores; rejects when Redis does not answer or is older than 7. */
export async function openRedisState(
  connection: RedisConnectionOptions,
  journal: JournalLimits = {},
): Promise<RedisState> {
  const shared = await connectRedis(connection);
  try {
    checkRedisVersion(await shared.run((client) => client.info('server')));
  } catch (error) {
    await shared.close();
    throw error;
  }
  const stores = redisMallStores(shared, journal);
  return {
    clockOffsets: redisClockOffsets(shared),
    stores,
    mallVersions: redisMallVersions(shared),
    connection: shared,
    ready: shared.ready,
    close: stores.close,
  };
}
