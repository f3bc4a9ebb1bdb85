// Everything the mocks share between requests in Redis besides OAuth (whose store is handed the
// connection), built over one connection; a Redis older than 7 is refused here, at start. The
// rate-limit buckets are `@mall-api/rate-limit/redis`'s (one atomic decision per call, so each API's
// limits hold for the sum of all replicas), keyed under the mall so a reset or a drop empties them.
// The one entry point to the Redis modules, loaded only when Redis is asked for, so the plain mock
// runs without ioredis installed.
import { createServerLimiter } from '@mall-api/rate-limit';
import { RedisStore } from '@mall-api/rate-limit/redis';
import type { JournalLimits } from '../malls/journal.js';
import type { ClockOffsetStore } from '../malls/mall-clocks.js';
import type { MallStateStores } from '../malls/mall-state-stores.js';
import type { SharedMallVersions } from '../store/mall-storage.js';
import { redisClockOffsets } from './redis-clock-offsets.js';
import {
  connectRedis,
  deleteMatching,
  globEscaped,
  mallKey,
  type RedisConnectionOptions,
  type SharedRedis,
} from './redis-connection.js';
import { redisFaultRules } from './redis-fault-rules.js';
import { redisJournal } from './redis-journal.js';
import { redisMallRoster } from './redis-mall-roster.js';
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
  const bucketPrefix = (mallId: string) => `${mallKey(shared, mallId)}rate-limit:`;
  return {
    clockOffsets: redisClockOffsets(shared),
    stores: {
      journal: redisJournal(shared, journal),
      faults: redisFaultRules(shared),
      roster: (onDrop, limits, now) => redisMallRoster(shared, onDrop, limits, now),
      limiter(limit, mallId, clock) {
        const store = new RedisStore({ redis: shared.client, keyPrefix: bucketPrefix(mallId) });
        const limiter = createServerLimiter({ api: limit, store, clock });
        // Through `run`, so a failed decision is logged and answered 503 like any other command.
        return { api: limiter.api, take: (key, cost) => shared.run(() => limiter.take(key, cost)) };
      },
      resetLimits: (mallId) =>
        shared.run(
          async (client) => void (await deleteMatching(client, `${globEscaped(bucketPrefix(mallId))}*`)),
        ),
      close: () => shared.close(),
    },
    mallVersions: redisMallVersions(shared),
    connection: shared,
    ready: shared.ready,
    close: () => shared.close(),
  };
}
