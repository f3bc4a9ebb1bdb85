// The sandbox malls of a process: each mall id an isolated mall, created on first use as `newMall`
// says, over the storage its caller opened with `@mall-api/mall-state`. A call runs as a read on its
// mall's store, and again as a write when the storage must commit it apart or the mall is new; a
// refusal is answered as a value, an unreachable storage as `unavailable`. A reset, fixture or
// restore fills the next store off to the side and swaps it in at once (a fixture is a `conflict`
// when the mall was written meanwhile); changes to one mall run in order.
import {
  type MallStorage,
  type MallVersion,
  memoryStorage,
  oneAtATime,
  runAsWrite,
  type SandboxStore,
  StoreUnavailableError,
} from '@mall-api/mall-state';
import { type ApiSpecs, loadSpecs } from '@mall-api/spec-model';
import { mallEvents } from '../events/mall-events.js';
import type { MallOutcome, Refusal, SandboxCall, SandboxMallsGateway, SandboxOutcome } from '../protocol.js';
import { callMall, refusal, refusalOf, writtenDuringLoad } from '../sandbox-result.js';
import { storeIdsNamed } from '../views/collection-view.js';
import {
  catchUpHooks,
  forget,
  type HeldMalls,
  handlerFor,
  handlerOf,
  heldMalls,
  heldRecords,
  install,
  over,
} from './held-malls.js';
import type { Mall } from './mall.js';
import { countsOf, createMallStarts, type MallFill, type MallStartsOptions } from './mall-starts.js';
import { type MallSnapshot, snapshotOf } from './snapshot.js';

/** How to run the sandbox malls. */
/** How a sandbox is opened: how its malls start (see {@link MallStartsOptions}), and where they live. */
export interface SandboxMallsOptions extends MallStartsOptions {
  /**
   * Where the malls' records are kept, opened by the caller with `@mall-api/mall-state`
   * (`openStorage`): memory (the default), one SQLite database in a data directory that survives
   * a restart, or PostgreSQL shared by replicas. The sandbox takes it over: its `close` closes it.
   */
  storage?: MallStorage;
  /** Malls created at start (as new malls start) unless the storage holds them already. */
  malls?: readonly string[];
  /**
   * The spec model of each API, which fixtures, snapshots and records are checked against and
   * which says the operations there are (the mocks pass the models they serve). Default, for a
   * sandbox used on its own: the shipped bundles.
   */
  specs?: ApiSpecs;
}

/** The sandbox malls of a process: the protocol's gateway, with snapshots typed. */
export interface SandboxMalls extends SandboxMallsGateway {
  /** Every record of a mall as plain JSON; undefined for a mall that does not exist (none is created). */
  snapshot(mallId: string): Promise<MallSnapshot | undefined>;
}

/** The refusal of a call the storage could not take. */
const unavailable = refusal(
  'unavailable',
  [],
  'The sandbox store is unavailable; nothing was changed. Try again shortly.',
);

/** The sandbox malls over `options.storage` (and the malls it already holds). */
export async function createSandboxMalls(options: SandboxMallsOptions = {}): Promise<SandboxMalls> {
  const storage = options.storage ?? memoryStorage();
  try {
    const specs = options.specs ?? (await loadSpecs());
    const starts = await createMallStarts(specs, options);
    const held = heldMalls(storage, starts, specs);
    const changing = oneAtATime();
    /** Runs a lifecycle change after the earlier ones on the mall: its fill, once checked, replaces the mall. */
    const change = (mallId: string, checked: () => Promise<MallFill | Refusal>): Promise<MallOutcome> =>
      changing(mallId, async () => {
        const fill = await checked();
        return typeof fill === 'function' ? replace(held, mallId, fill) : fill;
      });
    // A mall another replica dropped is forgotten here too, once upkeep finds it gone.
    storage.observeGone((mallId) => forget(held, mallId));
    for (const mallId of options.malls ?? []) await write(held, mallId, () => undefined);

    return {
      handles: (api, operationId) => handlerFor(held, api, operationId, starts.sample) !== undefined,
      handle: (call) => handle(held, call),
      reset: (mallId, to) => change(mallId, () => starts.refill(mallId, to)),
      loadFixture: (mallId, fixture) =>
        changing(mallId, async () => {
          const checked = await starts.checkFixture(fixture);
          if (!checked.ok) return checked;
          await write(held, mallId, () => undefined); // a mall the storage lacks starts as new malls do
          const base = await storage.current(mallId);
          if (!base) return writtenDuringLoad();
          return replace(held, mallId, starts.fixture(mallId, base.store, checked), base);
        }),
      async snapshot(mallId) {
        const read = await storage.read(mallId, snapshotOf);
        return read === runAsWrite ? undefined : read;
      },
      restore: (mallId, snapshot) => change(mallId, () => starts.restore(mallId, snapshot)),
      mallIds: () => storage.mallIds(),
      heldRecords: async () => heldRecords(held),
      async drop(mallId, stillUnused) {
        const dropped = await storage.drop(mallId, stillUnused);
        if (dropped) forget(held, mallId);
        return dropped;
      },
      ready: () => storage.ready(),
      events: mallEvents(
        storage,
        specs.admin,
        (listener) => held.outboxListeners.add(listener),
        (mallId, work) => write(held, mallId, (_mall, store) => work(store)),
      ),
      async close() {
        for (const mallId of [...held.malls.keys()]) held.malls.delete(mallId);
        await storage.close();
      },
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/** Runs `work` on a mall (and its store) as a write, starting the mall first when the storage had none. */
function write<R>(held: HeldMalls, mallId: string, work: (mall: Mall, store: SandboxStore) => R): Promise<R> {
  return held.storage.write(mallId, (store, fresh) => {
    const mall = over(held, mallId, store);
    if (fresh) held.starts.startNew(mall);
    return work(mall, store);
  });
}

/**
 * Answers a call (refused as `unavailable` when the storage cannot be reached); rejects only on
 * misuse. A call on a mall the storage holds in this process (its fast path) is answered at once.
 */
function handle(held: HeldMalls, call: SandboxCall): Promise<SandboxOutcome> {
  try {
    const store = call.api === 'collection' ? undefined : held.storage.heldNow?.(callMall(call));
    if (store) return Promise.resolve(handlerOf(held, call, over(held, callMall(call), store))(call));
  } catch (error) {
    return Promise.resolve().then(() => failed(error));
  }
  return handleInTurn(held, call).catch(failed);
}

/** Answers a call in the storage's turn. */
async function handleInTurn(held: HeldMalls, call: SandboxCall): Promise<SandboxOutcome> {
  if (call.api === 'collection') {
    const handler = handlerOf(held, call);
    await held.storage.catchUp(storeIdsNamed(call.query), catchUpHooks(held));
    return handler(call);
  }
  const mallId = callMall(call);
  // The handler of the mall over the store the call runs on (a new one when the mall was
  // replaced or dropped and made again meanwhile).
  const answer = (mall: Mall) => handlerOf(held, call, mall)(call);
  const read = await held.storage.read(mallId, (store) => answer(over(held, mallId, store)));
  return read === runAsWrite ? await write(held, mallId, answer) : read;
}

/** The refusal a failed call answers; throws an error that is no refusal (misuse). */
function failed(error: unknown): SandboxOutcome {
  const refused = refusalOf(error);
  if (refused) return refused;
  if (error instanceof StoreUnavailableError) return unavailable;
  throw error;
}

/**
 * Fills the mall's next records off to the side and swaps them in (with `expected`: only if the
 * mall is still at that version, else a `conflict` refusal); a refusal or an error keeps nothing.
 */
async function replace(
  held: HeldMalls,
  mallId: string,
  fill: MallFill,
  expected?: MallVersion,
): Promise<MallOutcome> {
  const staged = held.storage.stage(mallId);
  let next: Mall | Refusal;
  try {
    next = await fill(staged.store);
    if (!('ok' in next)) await next.collection.prepare();
  } catch (error) {
    await staged.discard();
    throw error;
  }
  if ('ok' in next) {
    await staged.discard();
    return next;
  }
  const mall = next;
  const swapped = await staged.swap(expected, () => install(held, mall));
  return swapped ? { ok: true, counts: countsOf(mall) } : writtenDuringLoad();
}
