// Everything the mocks keep per mall, composed: the clock, request journal, fault rules and
// rate-limit buckets and the roster of malls in use (`@mall-api/mall-state`'s stores, in memory or
// in Redis), plus the sandbox malls when the mocks run stateful. It stays in the mock because a reset
// spans the sandbox and the OAuth authority: it resets all of it and revokes the mall's OAuth grants.
// A mall dropped for idleness or past the cap loses all of it; the roster's check that it is still
// unused also clears its state in the same step, under the data's lock just before the data goes, so
// a first use after it keeps what it writes.
import {
  createMallClocks,
  expireEvery,
  type FaultRules,
  type Journal,
  type JournalLimits,
  type MallClocks,
  type MallLimits,
  type MallStateStores,
  memoryMallStores,
} from '@mall-api/mall-state';
import type { ApiLimit, ServerLimiter } from '@mall-api/rate-limit';
import type { MallCounts, MallStart, Refusal, SandboxMallsGateway } from '@mall-api/sandbox/protocol';
import type { EventDelivery } from '../events/event-delivery.js';

/** A mall reset: what its data now holds (nothing to count in example mode), or why nothing changed. */
export type MallReset = { readonly ok: true; readonly counts?: MallCounts } | Refusal;

/** Per-mall state shared by the mock APIs of a process (and, on Redis, by every replica). */
export interface MockMalls {
  readonly clocks: MallClocks;
  readonly journal: Journal;
  readonly faults: FaultRules;
  /** The stateful malls; undefined in example-only mode. */
  readonly sandbox: SandboxMallsGateway | undefined;
  /** The delivery of the sandbox malls' events; undefined in example-only mode. */
  readonly events: EventDelivery | undefined;
  /** The rate limiter of one API's limit at one mall, on the mall's clock. */
  limiter(limit: ApiLimit, mallId: string): ServerLimiter;
  /** Empties a mall's rate-limit buckets. */
  resetLimits(mallId: string): Promise<void>;
  /**
   * Resets a mall: data (to its seed, empty, or a fixture), journal, faults, buckets and clock,
   * and revokes its OAuth codes and tokens.
   */
  reset(mallId: string, to?: MallStart): Promise<MallReset>;
  /** Marks a mall used now (an authenticated request or a control change): see mall-state's roster. */
  touch(mallId: string): Promise<void>;
  /**
   * Marks a mall used now if it is in use already; false when it is not. A `read`'s mark may follow
   * a little later (see mall-state's roster).
   */
  renew(mallId: string, use: 'read' | 'write'): Promise<boolean>;
  /** Malls in use (idle ones dropped first). */
  mallIds(): Promise<string[]>;
  /** Stops the timer that drops idle malls. */
  close(): void;
}

/** How often idle malls are dropped on a timer, besides when malls are used or listed. */
const expireEveryMs = 60 * 1000;

/** Options of {@link createMockMalls}. */
export interface MockMallsOptions {
  readonly sandbox?: SandboxMallsGateway;
  /** The delivery of the sandbox malls' events (the control API registers receivers on it). */
  readonly events?: EventDelivery;
  /** The clocks, when they were created first (the sandbox's malls follow them too). */
  readonly clocks?: MallClocks;
  /** The cap on malls and their idle expiry. */
  readonly limits?: MallLimits;
  /** The bounds of the request journal (in-memory stores only; given stores bring their own). */
  readonly journal?: JournalLimits;
  /** Where the state lives (default: this process's memory). */
  readonly stores?: MallStateStores;
  /** Real time, for idle expiry (tests pass a simulated one; default Redis's clock on Redis, else this process's). */
  readonly now?: () => number;
  /** Revokes the OAuth codes and tokens issued for a mall (the OAuth authority's), on its reset. */
  readonly revokeGrants?: (mallId: string) => Promise<void>;
}

/** Creates the per-mall state; the malls the sandbox already holds are put in use. */
export async function createMockMalls(options: MockMallsOptions = {}): Promise<MockMalls> {
  const clocks = options.clocks ?? createMallClocks();
  const stores = options.stores ?? memoryMallStores(options.limits, options.journal);
  const { journal, faults } = stores;
  const roster = stores.roster(
    async (mallId, stillUnused) => {
      // The sandbox asks under the mall's lock (not at all for a mall it lacks); a true answer has
      // cleared the mall's state in the stores, and its clock here goes in the same step.
      let asked = false;
      const ask = () => {
        asked = true;
        return stillUnused().then((unused) => {
          if (unused) clocks.forget(mallId);
          return unused;
        });
      };
      await options.sandbox?.drop(mallId, ask);
      if (!asked) await ask();
    },
    options.limits,
    options.now,
  );
  // Malls the store already holds: on the roster, keeping the last use a shared roster has of them.
  await roster.adopt((await options.sandbox?.mallIds()) ?? []);
  const stopExpiry = expireEvery(roster, expireEveryMs);
  return {
    clocks,
    journal,
    faults,
    sandbox: options.sandbox,
    events: options.events,
    limiter: (limit, mallId) => stores.limiter(limit, mallId, () => clocks.now(mallId)),
    resetLimits: (mallId) => stores.resetLimits(mallId),
    async reset(mallId, to) {
      const change = options.sandbox ? await options.sandbox.reset(mallId, to) : { ok: true as const };
      if (!change.ok) return change;
      await Promise.all([
        journal.clear(mallId),
        faults.clear(mallId),
        stores.resetLimits(mallId),
        clocks.reset(mallId),
        options.revokeGrants?.(mallId),
      ]);
      await roster.touch(mallId);
      return change;
    },
    touch: roster.touch,
    renew: roster.renew,
    mallIds: roster.mallIds,
    close: stopExpiry,
  };
}
