// Everything the mocks keep per mall besides its data: the mall's clock, its request journal, its
// fault rules and its rate-limit buckets (on the mall's clock), plus the sandbox malls when the
// mocks run stateful. Resetting a mall resets all of it and revokes the OAuth codes and tokens
// issued for it. The malls in use are bounded
// (mall-roster.ts): a mall dropped for idleness or past the cap loses all of it, its data too. The
// mall of a request is the one its host or per-mall base URL names, else its token's, else the
// demo mall. Where the state lives is a set of stores: this process's memory by default
// (memory-mall-stores.ts), or Redis shared by every replica (redis/redis-mall-stores.ts); this
// module only composes them, so both behave alike.
import type { ApiLimit, ServerLimiter } from '@mall-api/rate-limit';
import type { MallCounts, MallStart, Refusal, SandboxMallsGateway } from '@mall-api/sandbox/protocol';
import type { Awaitable } from './awaitable.js';
import type { FaultRules } from './fault-rules.js';
import type { Journal, JournalLimits } from './journal.js';
import { createMallClocks, type MallClocks } from './mall-clocks.js';
import type { DropMall, MallLimits, MallRoster } from './mall-roster.js';
import { memoryMallStores } from './memory-mall-stores.js';

/** Where the per-mall state besides clocks lives (memory or Redis). */
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

/** A mall reset: what its data now holds (nothing to count in example mode), or why nothing changed. */
export type MallReset = { readonly ok: true; readonly counts?: MallCounts } | Refusal;

/** Per-mall state shared by the mock APIs of a process (and, on Redis, by every replica). */
export interface MockMalls {
  readonly clocks: MallClocks;
  readonly journal: Journal;
  readonly faults: FaultRules;
  /** The stateful malls; undefined in example-only mode. */
  readonly sandbox: SandboxMallsGateway | undefined;
  /** The rate limiter of one API's limit at one mall, on the mall's clock. */
  limiter(limit: ApiLimit, mallId: string): ServerLimiter;
  /** Empties a mall's rate-limit buckets. */
  resetLimits(mallId: string): Promise<void>;
  /**
   * Resets a mall: data (to its seed, empty, or a fixture), journal, faults, buckets and clock,
   * and revokes its OAuth codes and tokens.
   */
  reset(mallId: string, to?: MallStart): Promise<MallReset>;
  /** Marks a mall used now (an authenticated request or a control change): see mall-roster.ts. */
  touch(mallId: string): Promise<void>;
  /** Malls in use (idle ones dropped first). */
  mallIds(): Promise<string[]>;
}

/** Options of {@link createMockMalls}. */
export interface MockMallsOptions {
  readonly sandbox?: SandboxMallsGateway;
  /** Base time of every mall's clock (tests pass a simulated one). */
  readonly clock?: () => number;
  /** The clocks, when they were created first (the sandbox's malls follow them too); else made from `clock`. */
  readonly clocks?: MallClocks;
  /** The cap on malls and their idle expiry. */
  readonly limits?: MallLimits;
  /** The bounds of the request journal (in-memory stores only; given stores bring their own). */
  readonly journal?: JournalLimits;
  /** Where the state lives (default: this process's memory). */
  readonly stores?: MallStateStores;
  /** Real time, for idle expiry (tests pass a simulated one). */
  readonly now?: () => number;
  /** Revokes the OAuth codes and tokens issued for a mall (the OAuth authority's), on its reset. */
  readonly revokeGrants?: (mallId: string) => Awaitable<void>;
}

/** Creates the per-mall state; the malls the sandbox already holds are put in use. */
export async function createMockMalls(options: MockMallsOptions = {}): Promise<MockMalls> {
  const clocks = options.clocks ?? createMallClocks(options.clock);
  const stores = options.stores ?? memoryMallStores(options.limits, options.journal);
  const { journal, faults } = stores;
  const clear = async (mallId: string) => {
    await Promise.all([
      journal.clear(mallId),
      faults.clear(mallId),
      stores.resetLimits(mallId),
      clocks.reset(mallId),
    ]);
  };
  const roster = stores.roster(
    async (mallId) => {
      // Awaited whether the sandbox answers at once or later (its store may be a database).
      await options.sandbox?.drop(mallId);
      await clear(mallId);
    },
    options.limits,
    options.now,
  );
  for (const mallId of (await options.sandbox?.mallIds()) ?? []) await roster.touch(mallId);
  return {
    clocks,
    journal,
    faults,
    sandbox: options.sandbox,
    limiter: (limit, mallId) => stores.limiter(limit, mallId, () => clocks.now(mallId)),
    resetLimits: (mallId) => stores.resetLimits(mallId),
    async reset(mallId, to) {
      const change = options.sandbox ? await options.sandbox.reset(mallId, to) : { ok: true as const };
      if (!change.ok) return change;
      await Promise.all([clear(mallId), options.revokeGrants?.(mallId)]);
      await roster.touch(mallId);
      return change;
    },
    touch: roster.touch,
    mallIds: roster.mallIds,
  };
}
