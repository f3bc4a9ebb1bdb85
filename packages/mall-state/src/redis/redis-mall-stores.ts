// The per-mall state of the mocks in Redis, shared by every replica pointed at it: journal, fault
// rules, roster, and the rate-limit buckets of each API at each mall in
// `@mall-api/rate-limit/redis`'s Lua-script store (one atomic decision per call, so the held
// numbers of each API's algorithm hold for the sum of all replicas), deciding on the mall's clock
// and keyed under the mall (`<prefix>mall:<id>:rate-limit:…`) so a reset or a drop empties them.
// A failure of Redis becomes a StoreUnavailableError (answered 503), logged once by the
// connection. Composed by the mock (its mock-malls.ts) like the in-memory stores.
import type { ApiLimit, ServerLimiter } from '@mall-api/rate-limit';
import { createServerLimiter } from '@mall-api/rate-limit';
import { RedisStore } from '@mall-api/rate-limit/redis';
import type { JournalLimits } from '../malls/journal.js';
import type { MallStateStores } from '../malls/mall-state-stores.js';
import { deleteMatching, globEscaped, mallKey, type SharedRedis } from './redis-connection.js';
import { redisFaultRules } from './redis-fault-rules.js';
import { redisJournal } from './redis-journal.js';
import { redisMallRoster } from './redis-mall-roster.js';

/** Creates the stores over the shared connection; `close` closes it. */
export function redisMallStores(shared: SharedRedis, journal: JournalLimits = {}): MallStateStores {
  const bucketPrefix = (mallId: string) => `${mallKey(shared, mallId)}rate-limit:`;
  return {
    journal: redisJournal(shared, journal),
    faults: redisFaultRules(shared),
    roster: (onDrop, limits, now) => redisMallRoster(shared, onDrop, limits, now),
    limiter(limit: ApiLimit, mallId: string, clock: () => number): ServerLimiter {
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
  };
}
