// The per-mall state besides clocks and data (journal, fault rules, roster, rate-limit buckets) as
// one set of stores, treated alike: this module is the interface and the stores of one process's
// memory, the default when no Redis is given; replicas share redis/redis-state.ts. The buckets of
// malls never used (refused requests at any mall name) are bounded by count apart from the roster,
// least recently used going first. What a drop clears is the mock's.
import { type ApiLimit, createServerLimiter, type ServerLimiter } from '@mall-api/rate-limit';
import { createFaultRules, type FaultRules } from './fault-rules.js';
import { createJournal, type Journal, type JournalLimits } from './journal.js';
import {
  createMallRoster,
  type DropMall,
  defaultMallLimits,
  type MallLimits,
  type MallRoster,
} from './mall-roster.js';

/** Where the per-mall state besides clocks and data lives (memory or Redis). */
export interface MallStateStores {
  readonly journal: Journal;
  readonly faults: FaultRules;
  /** Creates the roster of malls in use, dropping with `onDrop`. */
  roster(onDrop: DropMall, limits?: MallLimits, now?: () => number): MallRoster;
  /** The rate limiter of one API's limit at one mall, deciding on `clock` (the mall's). */
  limiter(limit: ApiLimit, mallId: string, clock: () => number): ServerLimiter;
  /** Empties a mall's rate-limit buckets. */
  resetLimits(mallId: string): Promise<void>;
  /** Releases what the stores hold open (a connection). */
  close(): Promise<void>;
}

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
      // One added at most per call: past the bound, the least recently used goes.
      if (limiters.size > maxLimiters) limiters.delete(limiters.keys().next().value as string);
      return limiter;
    },
    resetLimits: async (mallId) => forgetLimits(mallId),
    close: async () => {},
  };
}
