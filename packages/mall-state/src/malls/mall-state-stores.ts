// The per-mall state besides clocks and data (journal, fault rules, roster, rate-limit buckets) as
// one set of stores, in this process's memory (memory-mall-stores.ts) or Redis shared by replicas
// (redis/redis-state.ts), treated alike. The interface only; what a drop clears is the mock's.
import type { ApiLimit, ServerLimiter } from '@mall-api/rate-limit';
import type { FaultRules } from './fault-rules.js';
import type { Journal } from './journal.js';
import type { DropMall, MallLimits, MallRoster } from './mall-roster.js';

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
