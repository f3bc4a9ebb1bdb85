// The per-mall state of one process in its own memory — journal, fault rules, roster and the
// rate-limit buckets of each API at each mall — the default when no Redis is given. The buckets
// of malls never used (refused requests at any mall name) are bounded by count apart from the
// roster, least recently used going first. Shared state is redis/redis-state.ts.
import { type ApiLimit, createServerLimiter, type ServerLimiter } from '@mall-api/rate-limit';
import { createFaultRules } from './fault-rules.js';
import { createJournal, type JournalLimits } from './journal.js';
import { createMallRoster, defaultMallLimits, type MallLimits } from './mall-roster.js';
import type { MallStateStores } from './mall-state-stores.js';

/** Creates the in-memory stores, bounded as `limits` and `journal` say. */
export function memoryMallStores(limits: MallLimits = {}, journal: JournalLimits = {}): MallStateStores {
  const limiters = new Map<string, ServerLimiter>();
  // Buckets of unauthenticated callers at any mall name are kept too (429 comes before 401), so
  // their number is bounded apart from the roster's.
  const maxLimiters = 4 * (limits.maxMalls ?? defaultMallLimits.maxMalls);
  const journalStore = createJournal(journal);
  const faults = createFaultRules();
  const forgetLimits = (mallId: string) => {
    for (const key of [...limiters.keys()]) if (key.endsWith(`@${mallId}`)) limiters.delete(key);
  };
  return {
    journal: journalStore,
    faults,
    // A drop's `stillUnused` clears the mall here in the same synchronous step (each clear is done
    // by the time its promise is made).
    roster: (onDrop, rosterLimits, now) =>
      createMallRoster(onDrop, rosterLimits, now, (mallId) => {
        void journalStore.clear(mallId);
        void faults.clear(mallId);
        forgetLimits(mallId);
      }),
    limiter(limit: ApiLimit, mallId: string, clock: () => number) {
      const key = `${limit.name}@${mallId}`;
      let limiter = limiters.get(key);
      if (limiter) limiters.delete(key);
      else limiter = createServerLimiter({ api: limit, clock });
      limiters.set(key, limiter);
      for (const [oldest] of limiters) {
        if (limiters.size <= maxLimiters) break;
        limiters.delete(oldest);
      }
      return limiter;
    },
    resetLimits: async (mallId) => forgetLimits(mallId),
    close: async () => {},
  };
}
