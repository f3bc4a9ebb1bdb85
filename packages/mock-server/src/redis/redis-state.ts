// Everything the mocks share between requests, in Redis (`--redis redis://…`): connects once and
// builds the clock offsets, the per-mall stores and the OAuth store over that connection. The one
// entry point to the Redis modules, loaded only when Redis is asked for, so the plain mock runs
// without ioredis installed. Mall data is not here: that is the sandbox's store.
import type { JournalLimits } from '../malls/journal.js';
import type { ClockOffsetStore, MallClocks } from '../malls/mall-clocks.js';
import type { MallStateStores } from '../malls/mock-malls.js';
import type { OAuthStore } from '../oauth/oauth-store.js';
import { redisClockOffsets } from './redis-clock-offsets.js';
import { connectRedis, type RedisConnectionOptions } from './redis-connection.js';
import { redisMallStores } from './redis-mall-stores.js';
import { redisOAuthStore } from './redis-oauth-store.js';

/** The shared state of one mock process. */
export interface RedisState {
  readonly clockOffsets: ClockOffsetStore;
  readonly stores: MallStateStores;
  /** The OAuth store, checking expiry on `clocks` (made over {@link clockOffsets}). */
  oauthStore(clocks: MallClocks): OAuthStore;
  /** Whether Redis is connected. */
  ready(): boolean;
  close(): Promise<void>;
}

/** Connects to Redis and builds the stores; rejects when Redis does not answer. */
export async function openRedisState(
  connection: RedisConnectionOptions,
  journal: JournalLimits = {},
): Promise<RedisState> {
  const shared = await connectRedis(connection);
  const stores = redisMallStores(shared, journal);
  return {
    clockOffsets: redisClockOffsets(shared),
    stores,
    oauthStore: (clocks) => redisOAuthStore(shared, clocks),
    ready: shared.ready,
    close: stores.close,
  };
}
