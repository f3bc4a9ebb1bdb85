// Everything the mocks of one process keep per mall besides its data: the mall's clock, its
// request journal, its fault rules and its rate-limit buckets (on the mall's clock), plus the
// sandbox malls when the mocks run stateful. Resetting a mall resets all of it. The mall of a
// request is the one its host or per-mall base URL names, else its token's, else the demo mall.
import { type ApiLimit, createServerLimiter, type ServerLimiter } from '@mall-api/rate-limit';
import type { MallChange, MallStart, SandboxMallsGateway } from '../sandbox-gateway.js';
import { createFaultRules, type FaultRules } from './fault-rules.js';
import { createJournal, type Journal } from './journal.js';
import { createMallClocks, type MallClocks } from './mall-clocks.js';

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
  reset(mallId: string, to?: MallStart): MallChange;
  /** Malls that have been used (data, journal or faults). */
  mallIds(): string[];
}

/** Options of {@link createMockMalls}. */
export interface MockMallsOptions {
  readonly sandbox?: SandboxMallsGateway;
  /** Base time of every mall's clock (tests pass a simulated one). */
  readonly clock?: () => number;
  /** The clocks, when they were created first (the sandbox's malls follow them too); else made from `clock`. */
  readonly clocks?: MallClocks;
}

/** Creates the per-mall state. */
export function createMockMalls(options: MockMallsOptions = {}): MockMalls {
  const clocks = options.clocks ?? createMallClocks(options.clock);
  const journal = createJournal();
  const faults = createFaultRules();
  const limiters = new Map<string, ServerLimiter>();
  const used = new Set<string>();
  const resetLimits = (mallId: string) => {
    for (const key of [...limiters.keys()]) if (key.endsWith(`@${mallId}`)) limiters.delete(key);
  };
  return {
    clocks,
    journal,
    faults,
    sandbox: options.sandbox,
    limiter(limit, mallId) {
      used.add(mallId);
      const key = `${limit.name}@${mallId}`;
      let limiter = limiters.get(key);
      if (!limiter) {
        limiter = createServerLimiter({ api: limit, clock: () => clocks.now(mallId) });
        limiters.set(key, limiter);
      }
      return limiter;
    },
    resetLimits,
    reset(mallId, to) {
      const change = options.sandbox ? options.sandbox.reset(mallId, to) : { ok: true as const };
      if (!change.ok) return change;
      journal.clear(mallId);
      faults.clear(mallId);
      resetLimits(mallId);
      clocks.reset(mallId);
      return change;
    },
    mallIds: () => [...new Set([...used, ...(options.sandbox?.mallIds() ?? [])])].sort(),
  };
}
