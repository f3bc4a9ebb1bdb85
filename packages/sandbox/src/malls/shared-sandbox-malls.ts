// The sandbox malls of a replica when PostgreSQL keeps them (postgres-malls.ts): the same services
// and lifecycle as sandbox-malls.ts, answered asynchronously. A call first runs as a read on its
// mall's caught-up copy; one that writes (whatever its HTTP method: the store sees the writes) or
// finds no mall runs again as a write — one database transaction under the mall's row lock, a new
// mall started there as `newMall` says. A replica reads a mall when a call first needs it (not
// every mall at start); a collection call first catches up the malls it answers over — those its
// mall parameter names, else every mall — reading those it does not hold yet, so a call naming
// one mall costs one mall whatever the database holds. A reset, fixture or restore builds the mall's next records off to the side in
// time slices (the mall answering from its old records meanwhile), has the store write them as
// the mall's next row set in batches and swap it in at once; a fixture is refused as a `conflict`
// when the mall was written meanwhile, by any replica. Changes to one mall run one at a time in a
// replica, in the order asked. A database that cannot be reached answers an `unavailable` refusal
// (the call changed nothing); lifecycle operations then reject with the StoreUnavailableError. Not
// here: the SQL (mall-state's PostgreSQL storage, opened by the caller) and how a mall is built or
// filled (sandbox-malls.ts, passed in as a MallsCore).
import {
  type MallVersion,
  oneAtATime,
  type PostgresMalls,
  runAsWrite,
  type SandboxStore,
  StoreUnavailableError,
} from '@mall-api/mall-state';
import type {
  MallCounts,
  MallOutcome,
  MallStart,
  Refusal,
  SandboxApi,
  SandboxCall,
  SandboxMallsGateway,
  SandboxOutcome,
  StillUnused,
} from '../protocol.js';
import { callMall, refusal, refusalOf, writtenDuringLoad } from '../sandbox-result.js';
import type { AnyHandler } from '../views/handler-types.js';
import type { CheckedFixture } from './fixtures.js';
import type { Mall } from './mall.js';
import { type MallSnapshot, snapshotOf } from './snapshot.js';

/** The sandbox malls of a replica over a shared PostgreSQL database (the protocol's gateway, answering later). */
export interface SharedSandboxMalls extends SandboxMallsGateway {
  /** Whether the sandbox answers this operation (false: the mock answers from the spec's examples). */
  handles(api: SandboxApi, operationId: string): boolean;
  /** Answers a call (refused as `unavailable` when the database cannot be reached); throws only on misuse, as SandboxMalls does. */
  handle(call: SandboxCall): Promise<SandboxOutcome>;
  /** Empties a mall and starts it again as `to` says (default: as a new mall starts). */
  reset(mallId: string, to?: MallStart): Promise<MallOutcome>;
  /** Adds a fixture's records to a mall: all of them, or none when one is refused (a `conflict`: the mall was written meanwhile). */
  loadFixture(mallId: string, fixture: unknown): Promise<MallOutcome>;
  /** Every record of a mall as plain JSON; undefined for a mall that does not exist. */
  snapshot(mallId: string): Promise<MallSnapshot | undefined>;
  /** Replaces a mall's records with a snapshot's (checked first; a bad snapshot changes nothing). */
  restore(mallId: string, snapshot: unknown): Promise<MallOutcome>;
  /** The malls the database holds, in id order. */
  mallIds(): Promise<string[]>;
  /**
   * Removes a mall and its records under the mall's row lock (with `stillUnused`: asked there,
   * only if it answers true); false when nothing was removed.
   */
  drop(mallId: string, stillUnused?: StillUnused): Promise<boolean>;
  /** Whether the database answers (for `/__ready`). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Fills a mall's staged (empty) store, in time slices: the mall over it, or why it cannot be. */
export type MallFill = (store: SandboxStore) => Promise<Mall | Refusal>;

/**
 * What the shared malls use of sandbox-malls.ts: building, filling and answering one mall. A
 * lifecycle change is checked first, then fills a staged store (the same fills the memory and
 * SQLite malls use).
 */
export interface MallsCore {
  handles(api: SandboxApi, operationId: string): boolean;
  /** The handler of a call on `mall` (undefined: a collection call); throws on misuse. */
  handlerOf(call: SandboxCall, mall: Mall | undefined): AnyHandler;
  /** The malls a collection call's mall parameter names; undefined when it answers over every mall. */
  mallsNamed(call: SandboxCall): readonly string[] | undefined;
  /** The mall as this replica holds it, opened (empty) when it holds none. */
  held(mallId: string): Mall;
  /** The mall over `store`, made the one of its id if it is not already (the store replaced it). */
  over(mallId: string, store: SandboxStore): Mall;
  /** Makes `mall` the one of its id (a staged mall just swapped in). */
  install(mall: Mall): void;
  /** Forgets a mall in this replica. */
  forget(mallId: string): void;
  /** Fills a new mall (inside a transaction). */
  startNew(mall: Mall): void;
  /** What the mall holds. */
  counts(mall: Mall): MallCounts;
  /** The fill of a reset to `to` (by default as a new mall starts); or why it cannot be. */
  refill(mallId: string, to?: MallStart): Promise<MallFill | Refusal>;
  /** Checks a fixture's records; or why none will be added. */
  checkFixture(fixture: unknown): Promise<CheckedFixture | Refusal>;
  /** The fill of a checked fixture added to the records of `base`. */
  fixture(mallId: string, base: SandboxStore, checked: CheckedFixture): MallFill;
  /** The fill of a snapshot's records; or what is wrong with the snapshot. */
  restore(mallId: string, snapshot: unknown): Promise<MallFill | Refusal>;
}

/** The refusal of a call the database could not take. */
const unavailable = refusal(
  'unavailable',
  [],
  'The sandbox store is unavailable; nothing was changed. Try again shortly.',
);

/**
 * The shared malls over `postgres`; the malls of `initial` are created (as new malls start) when
 * the database does not hold them yet.
 */
export async function sharedSandboxMalls(
  core: MallsCore,
  postgres: PostgresMalls,
  initial: readonly string[],
): Promise<SharedSandboxMalls> {
  const changing = oneAtATime();
  /** Runs `work` on a mall as a write, starting the mall first when the database had none. */
  const write = <R>(mallId: string, work: (mall: Mall) => R): Promise<R> =>
    postgres.write(mallId, (store, fresh) => {
      const mall = core.over(mallId, store);
      if (fresh) core.startNew(mall);
      return work(mall);
    });
  /**
   * Fills the mall's next records off to the side and swaps them in (with `expected`: only if the
   * mall is still at that version, else a `conflict` refusal); a refusal writes nothing.
   */
  const replace = async (mallId: string, fill: MallFill, expected?: MallVersion): Promise<MallOutcome> => {
    const staged = postgres.stage(mallId);
    const next = await fill(staged.store);
    if ('ok' in next) return next;
    await next.collection.prepare();
    const swapped = await staged.swap(expected, () => core.install(next));
    return swapped ? { ok: true, counts: core.counts(next) } : writtenDuringLoad();
  };
  /** Runs a lifecycle change after the earlier ones on the mall: its fill, once checked, replaces the mall. */
  const change = (mallId: string, checked: () => Promise<MallFill | Refusal>): Promise<MallOutcome> =>
    changing(mallId, async () => {
      const fill = await checked();
      return typeof fill === 'function' ? replace(mallId, fill) : fill;
    });
  /** Catches up the malls a collection call answers over (every mall unless it names some). */
  const catchUpFor = (call: SandboxCall) => {
    const named = core.mallsNamed(call);
    return named
      ? postgres.catchUpMalls(named, core.held, core.forget, core.over)
      : postgres.catchUpAll(core.held, core.forget, core.over);
  };

  // A mall another replica dropped is forgotten here too, once upkeep finds it gone.
  postgres.observeGone(core.forget);
  // Only the initial malls are made (and held) here: any other is read when a call first needs it.
  for (const mallId of initial) await write(mallId, () => undefined);

  return {
    handles: core.handles,
    async handle(call) {
      try {
        if (call.api === 'collection') {
          const handler = core.handlerOf(call, undefined);
          await catchUpFor(call);
          return handler(call);
        }
        const mallId = callMall(call);
        // The handler of the mall over the store the call runs on (a new one when the mall was
        // replaced or dropped and made again meanwhile).
        const answer = (mall: Mall) => core.handlerOf(call, mall)(call);
        const read = await postgres.read(mallId, (store) => answer(core.over(mallId, store)));
        return read === runAsWrite ? await write(mallId, answer) : read;
      } catch (error) {
        const refused = refusalOf(error);
        if (refused) return refused;
        if (error instanceof StoreUnavailableError) return unavailable;
        throw error;
      }
    },
    reset: (mallId, to) => change(mallId, () => core.refill(mallId, to)),
    loadFixture: (mallId, fixture) =>
      changing(mallId, async () => {
        const checked = await core.checkFixture(fixture);
        if (!checked.ok) return checked;
        await write(mallId, () => undefined); // a mall the database lacks starts as new malls do
        const base = await postgres.current(mallId);
        if (!base) return writtenDuringLoad();
        return replace(mallId, core.fixture(mallId, base.store, checked), base);
      }),
    async snapshot(mallId) {
      const read = await postgres.read(mallId, snapshotOf);
      return read === runAsWrite ? undefined : read;
    },
    restore: (mallId, snapshot) => change(mallId, () => core.restore(mallId, snapshot)),
    mallIds: () => postgres.mallIds(),
    async drop(mallId, stillUnused) {
      const dropped = await postgres.drop(mallId, stillUnused);
      if (dropped) core.forget(mallId);
      return dropped;
    },
    ready: () => postgres.ready(),
    close: () => postgres.close(),
  };
}
