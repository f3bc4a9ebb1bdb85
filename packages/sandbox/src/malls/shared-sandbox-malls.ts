// The sandbox malls of a replica when PostgreSQL keeps them (postgres-malls.ts): the same services
// and lifecycle as sandbox-malls.ts, answered asynchronously. A call first runs as a read on its
// mall's caught-up copy; one that writes (whatever its HTTP method: the store sees the writes) or
// finds no mall runs again as a write — one database transaction under the mall's row lock, a new
// mall started there as `newMall` says. A collection call catches up every mall whose version
// changed first. A database that cannot be reached answers an `unavailable` refusal (the call
// changed nothing); lifecycle operations then reject with the StoreUnavailableError. Not here: the
// SQL (the store) and how a mall is built or filled (sandbox-malls.ts, passed in as a MallsCore).
import type {
  MallOutcome,
  MallStart,
  Refusal,
  SandboxApi,
  SandboxCall,
  SandboxMallsGateway,
  SandboxOutcome,
} from '../protocol.js';
import { callMall, RefusalError, refusal, refusalOf } from '../sandbox-result.js';
import { type PostgresMalls, runAsWrite, StoreUnavailableError } from '../store/postgres-malls.js';
import type { AnyHandler } from '../views/handler-types.js';
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
  /** Adds a fixture's records to a mall: all of them, or none when one is refused. */
  loadFixture(mallId: string, fixture: unknown): Promise<MallOutcome>;
  /** Every record of a mall as plain JSON; undefined for a mall that does not exist. */
  snapshot(mallId: string): Promise<MallSnapshot | undefined>;
  /** Replaces a mall's records with a snapshot's (checked first; a bad snapshot changes nothing). */
  restore(mallId: string, snapshot: unknown): Promise<MallOutcome>;
  /** The malls the database holds, in id order. */
  mallIds(): Promise<string[]>;
  /** Removes a mall and its records; false when it did not exist. */
  drop(mallId: string): Promise<boolean>;
  /** Whether the database answers (for `/__ready`). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** A change to a mall whose input was checked, run in one go inside the caller's transaction. */
export type MallChange = (mall: Mall) => MallOutcome;

/**
 * What the shared malls use of sandbox-malls.ts: building, filling and answering one mall. A
 * lifecycle change is checked first (asynchronously, outside any transaction), then run as one
 * {@link MallChange} in the database transaction.
 */
export interface MallsCore {
  handles(api: SandboxApi, operationId: string): boolean;
  /** The handler of a call on `mall` (undefined: a collection call); throws on misuse. */
  handlerOf(call: SandboxCall, mall: Mall | undefined): AnyHandler;
  /** The mall as this replica holds it, built (empty) when it holds none. */
  held(mallId: string): Mall;
  /** Forgets a mall in this replica. */
  forget(mallId: string): void;
  /** Fills a new mall (inside a transaction). */
  startNew(mall: Mall): void;
  /** Empties a mall and fills it as `to` says, by default as a new mall starts; or why it cannot. */
  refill(to?: MallStart): Promise<MallChange | Refusal>;
  /** Adds a fixture's records; or why none will be added. */
  fixture(fixture: unknown): Promise<MallChange | Refusal>;
  /** Replaces a mall's records with a snapshot's; or what is wrong with the snapshot. */
  restore(snapshot: unknown): Promise<MallChange | Refusal>;
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
  /**
   * Runs `work` on a mall as a write, starting the mall first when the database had none. The mall
   * is looked up in the same turn as the store's copy, so both are the same one.
   */
  const write = <R>(mallId: string, work: (mall: Mall) => R): Promise<R> => {
    const mall = core.held(mallId);
    return postgres.write(mallId, (fresh) => {
      if (fresh) core.startNew(mall);
      return work(mall);
    });
  };
  /** Runs a checked lifecycle change as a write; a refusal (before or during it) writes nothing and is answered. */
  const change = async (mallId: string, checked: Promise<MallChange | Refusal>): Promise<MallOutcome> => {
    const work = await checked;
    if (typeof work !== 'function') return work;
    try {
      return await write(mallId, (mall) => {
        const outcome = work(mall);
        if (!outcome.ok) throw new RefusalError(outcome);
        return outcome;
      });
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) return refused;
      throw error;
    }
  };
  const catchUpAll = () => postgres.catchUpAll(core.held, core.forget);

  for (const mallId of initial) await write(mallId, () => undefined);
  await catchUpAll();

  return {
    handles: core.handles,
    async handle(call) {
      try {
        if (call.api === 'collection') {
          const handler = core.handlerOf(call, undefined);
          await catchUpAll();
          return handler(call);
        }
        const mallId = callMall(call);
        // The handler of the mall object the store call runs on: a mall forgotten meanwhile (dropped
        // elsewhere) is built again for the write, and its handler must be the new one's.
        const answer = (mall: Mall) => core.handlerOf(call, mall)(call);
        const mall = core.held(mallId);
        const read = await postgres.read(mallId, () => answer(mall));
        return read === runAsWrite ? await write(mallId, answer) : read;
      } catch (error) {
        const refused = refusalOf(error);
        if (refused) return refused;
        if (error instanceof StoreUnavailableError) return unavailable;
        throw error;
      }
    },
    reset: (mallId, to) => change(mallId, core.refill(to)),
    loadFixture: (mallId, fixture) => change(mallId, core.fixture(fixture)),
    async snapshot(mallId) {
      const mall = core.held(mallId);
      const read = await postgres.read(mallId, () => snapshotOf(mall.catalogue.store));
      return read === runAsWrite ? undefined : read;
    },
    restore: (mallId, snapshot) => change(mallId, core.restore(snapshot)),
    mallIds: () => postgres.mallIds(),
    async drop(mallId) {
      const dropped = await postgres.drop(mallId);
      core.forget(mallId);
      return dropped;
    },
    ready: () => postgres.ready(),
    close: () => postgres.close(),
  };
}
