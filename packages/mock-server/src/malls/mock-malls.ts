// Everything the mocks of one process keep per mall besides its data: the mall's clock, its
// request journal, its fault rules and its rate-limit buckets (on the mall's clock), plus the
// sandbox malls when the mocks run stateful. Resetting a mall resets all of it. The malls in use
// are bounded (mall-roster.ts): a mall dropped for idleness or past the cap loses all of it, and
// the buckets of malls never used (refused requests) are bounded by count, least recently used
// going first. The mall of a request is the one its host or per-mall base URL names, else its
// token's, else the demo mall.
import { type ApiLimit, createServerLimiter, type ServerLimiter } from '@mall-api/rate-limit';
import type { MallChange, MallStart, SandboxMallsGateway } from '../sandbox-gateway.js';
import { createFaultRules, type FaultRules } from './fault-rules.js';
import { createJournal, type Journal, type JournalLimits } from './journal.js';
import { createMallClocks, type MallClocks } from './mall-clocks.js';
import { createMallRoster, defaultMallLimits, type MallLimits } from './mall-roster.js';

/** Per-mall state shared by the mock APIs of a process. */
export interface MockMalls {
  readonly clocks: MallClocks;
  readonly journal: Journal;
  readonly faults: FaultRules;
  /** The stateful malls; undefined in example-only mode. */
  readonly sandbox: SandboxMallsGateway | undefined;
  /** The rate limiter of one API's limit at one mall, on the mall's clock. */
  limiter(limit: ApiLimit, mallId: string): ServerLimiter;
  /** Empties a mall's rate-limit buckets. */
  resetLimits(mallId: string): void;
  /** Resets a mall: data (to its seed, empty, or a fixture), journal, faults, buckets and clock. */
  reset(mallId: string, to?: MallStart): Promise<MallChange>;
  /** Marks a mall used now (an authenticated request or a control change): see mall-roster.ts. */
  touch(mallId: string): void;
  /** Malls in use (idle ones dropped first). */
  mallIds(): string[];
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
  /** The bounds of the request journal. */
  readonly journal?: JournalLimits;
  /** Real time, for idle expiry (tests pass a simulated one). */
  readonly now?: () => number;
}

/** Creates the per-mall state. */
export function createMockMalls(options: MockMallsOptions = {}): MockMalls {
  const clocks = options.clocks ?? createMallClocks(options.clock);
  const journal = createJournal(options.journal);
  const faults = createFaultRules();
  const limiters = new Map<string, ServerLimiter>();
  // Buckets of unauthenticated callers at any mall name are kept too (429 comes before 401), so
  // their number is bounded apart from the roster's.
  const maxLimiters = 4 * (options.limits?.maxMalls ?? defaultMallLimits.maxMalls);
  const resetLimits = (mallId: string) => {
    for (const key of [...limiters.keys()]) if (key.endsWith(`@${mallId}`)) limiters.delete(key);
  };
  const clear = (mallId: string) => {
    journal.clear(mallId);
    faults.clear(mallId);
    resetLimits(mallId);
    clocks.reset(mallId);
  };
  const roster = createMallRoster(
    (mallId) => {
      options.sandbox?.drop(mallId);
      clear(mallId);
    },
    options.limits,
    options.now,
  );
  for (const mallId of options.sandbox?.mallIds() ?? []) roster.touch(mallId);
  return {
    clocks,
    journal,
    faults,
    sandbox: options.sandbox,
    limiter(limit, mallId) {
      const key = `${limit.name}@${mallId}`;
      let limiter = limiters.get(key);
      if (limiter) limiters.delete(key);
      else limiter = createServerLimiter({ api: limit, clock: () => clocks.now(mallId) });
      limiters.set(key, limiter);
      for (const [oldest] of limiters) {
        if (limiters.size <= maxLimiters) break;
        limiters.delete(oldest);
      }
      return limiter;
    },
    resetLimits,
    async reset(mallId, to) {
      const change = options.sandbox ? await options.sandbox.reset(mallId, to) : { ok: true as const };
      if (!change.ok) return change;
      clear(mallId);
      roster.touch(mallId);
      return change;
    },
    touch: roster.touch,
    mallIds: roster.mallIds,
  };
}
